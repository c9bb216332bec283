// One image through sharp (D44): check that the bytes are the type the name
// says and decode whole, then make the resized WebP variants. Runs in the
// image worker (image-worker.ts); sharp is loaded only when an image misses
// the cache.

/** Widths of the srcset variants; only those narrower than the original are made. */
export const VARIANT_WIDTHS = [480, 960, 1440] as const;
const WEBP = { quality: 80, effort: 4 } as const;

/** File extensions folio accepts, and the format sharp must find in the bytes. */
export const IMAGE_TYPES: Record<string, { type: string; format: string }> = {
  png: { type: 'image/png', format: 'png' },
  jpg: { type: 'image/jpeg', format: 'jpeg' },
  jpeg: { type: 'image/jpeg', format: 'jpeg' },
  gif: { type: 'image/gif', format: 'gif' },
  webp: { type: 'image/webp', format: 'webp' },
  avif: { type: 'image/avif', format: 'heif' },
  svg: { type: 'image/svg+xml', format: 'svg' },
};

export interface Processed {
  width: number | null;
  height: number | null;
  variants: { width: number; height: number; body: Uint8Array }[];
}

/** The reason an image cannot be used, for a content error. */
export class ImageRejected extends Error {}

type Sharp = typeof import('sharp');
let sharpModule: Promise<Sharp> | undefined;
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => ((m as { default?: Sharp }).default ?? m) as Sharp));

/** With `variants` false (folio check), the image is only checked: its variants are not made. */
export async function processImage(bytes: Uint8Array, ext: string, variants = true): Promise<Processed> {
  const expected = IMAGE_TYPES[ext];
  if (!expected) throw new ImageRejected(`.${ext} is not an image type folio publishes`);
  const sharp = await loadSharp();
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let meta: import('sharp').Metadata;
  try {
    meta = await sharp(input).metadata();
  } catch (error) {
    throw new ImageRejected(`it cannot be read as an image (${(error as Error).message})`);
  }
  if (meta.format !== expected.format) {
    throw new ImageRejected(
      meta.format ? `it holds ${meta.format.toUpperCase()} data, not ${ext.toUpperCase()}` : 'its format is not recognised',
    );
  }
  const width = meta.width ?? null;
  // An animated image's metadata counts every frame's rows; one frame is what shows.
  const height = meta.pageHeight ?? meta.height ?? null;
  if (ext === 'svg') return { width, height, variants: [] };
  const animated = (meta.pages ?? 1) > 1;
  const made: Processed['variants'] = [];
  try {
    // A whole decode, so a truncated or damaged file fails here rather than in a browser.
    await sharp(input, { failOn: 'error', animated }).stats();
    for (const w of variants ? VARIANT_WIDTHS : []) {
      if (!width || w >= width) continue;
      const { data, info } = await sharp(input, { animated }).resize({ width: w }).webp(WEBP).toBuffer({ resolveWithObject: true });
      made.push({
        width: info.width,
        height: animated && height ? Math.round((height * info.width) / width) : info.height,
        body: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      });
    }
  } catch (error) {
    throw new ImageRejected(`it is damaged or incomplete (${(error as Error).message})`);
  }
  return { width, height, variants: made };
}

/** What the cache key of a processed image includes besides its bytes: sharp's version and these settings. */
export function processingVersion(sharpVersion: string): string {
  return JSON.stringify({ sharp: sharpVersion, widths: VARIANT_WIDTHS, webp: WEBP });
}
