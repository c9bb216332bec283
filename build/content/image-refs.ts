// Images in a Markdown body (D44), pure: which images are local files, where
// they stand in the source, and how the rendered HTML and the stored Markdown
// take their final addresses once the build has resolved the files
// (build/emit/images.ts). The rendered HTML holds a placeholder src per local
// image, so a cached record stays a function of the file's text alone.
import type { Definition, Image, Root } from 'mdast';
import { visit } from 'unist-util-visit';

/** One local image of a body, in document order. */
export interface ImageRef {
  /** The path as written (Markdown escapes and entities already decoded). */
  src: string;
  alt: string;
  title: string | null;
  line: number;
  column: number;
  /** The image's span in the Markdown text: [start, end) offsets. */
  start: number;
  end: number;
  /** Set on the definition of a reference-style image (`[label]: ./a.png`), which is no image itself. */
  label?: string;
}

/** What the build made of one image file. */
export interface MediaImage {
  /** Site-relative address of the fingerprinted original, /media/<hash>.<ext>. */
  url: string;
  width: number | null;
  height: number | null;
  /** Resized WebP copies, narrowest first; none for SVG or a small original. */
  variants: { url: string; width: number }[];
}

const PLACEHOLDER = '/_folio-image/';

/** A URL with a scheme (https:, data:) or protocol-relative: not a file of the site. */
export function isLocalImage(src: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith('//') && !src.startsWith('#') && src.trim() !== '';
}

/**
 * Finds the local images of `tree` (parsed from `markdown`) and replaces
 * their URLs with placeholders, so the HTML rendered from the tree can take
 * the final addresses later. Image references (`![alt][ref]`) become plain
 * images of their definition's URL.
 */
export function collectImages(tree: Root, markdown: string): ImageRef[] {
  const definitions = new Map<string, Definition>();
  visit(tree, 'definition', (node) => void (definitions.has(node.identifier) || definitions.set(node.identifier, node)));
  const refs: ImageRef[] = [];
  const used = new Set<Definition>();
  visit(tree, ['image', 'imageReference'], (node, index, parent) => {
    let image: Image;
    if (node.type === 'imageReference') {
      const def = definitions.get(node.identifier);
      if (!def || !parent || index === undefined) return;
      image = { type: 'image', url: def.url, alt: node.alt ?? '', title: def.title ?? null, position: node.position };
      parent.children[index] = image;
      used.add(def);
    } else image = node as Image;
    if (!isLocalImage(image.url) || !image.position) return;
    const { start, end } = image.position;
    refs.push({ src: image.url, alt: image.alt ?? '', title: image.title ?? null, line: start.line, column: start.column, start: start.offset ?? 0, end: end.offset ?? markdown.length });
    image.url = `${PLACEHOLDER}${refs.length - 1}`;
  });
  // A definition images use takes the final address in the stored Markdown too.
  for (const def of used) {
    if (!isLocalImage(def.url) || !def.position) continue;
    const { start, end } = def.position;
    refs.push({ src: def.url, alt: '', title: def.title ?? null, line: start.line, column: start.column, start: start.offset ?? 0, end: end.offset ?? markdown.length, label: def.label ?? def.identifier });
  }
  return refs;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** How wide a body image is shown: at most the text column (--measure, 46rem), else the viewport. */
export const BODY_SIZES = '(min-width: 48.5rem) 46rem, 100vw';

/** The address and size attributes of an <img> for a resolved image. */
export function imageAttributes(image: MediaImage, sizes = BODY_SIZES): string {
  const parts = [`src="${attr(image.url)}"`];
  if (image.variants.length) {
    const candidates = image.variants.map((v) => `${v.url} ${v.width}w`);
    if (image.width) candidates.push(`${image.url} ${image.width}w`);
    parts.push(`srcset="${attr(candidates.join(', '))}"`, `sizes="${sizes}"`);
  }
  if (image.width && image.height) parts.push(`width="${image.width}"`, `height="${image.height}"`);
  return parts.join(' ');
}

/** The HTML with each placeholder replaced: by the resolved image, or (unresolved) the path as written. */
export function finishHtml(html: string, refs: readonly ImageRef[], resolved: readonly (MediaImage | undefined)[]): string {
  if (!refs.length) return html;
  return html.replace(/<img src="\/_folio-image\/(\d+)"/g, (whole, n: string) => {
    const ref = refs[Number(n)];
    if (!ref) return whole;
    const image = resolved[Number(n)];
    return `<img ${image ? imageAttributes(image) : `src="${attr(ref.src)}"`}`;
  });
}

const escapeAlt = (s: string) => s.replace(/[\\[\]*_`<>]/g, '\\$&');
const escapeTitle = (s: string) => s.replace(/["\\]/g, '\\$&');

/**
 * The Markdown with each resolved image rewritten to the absolute URL of its
 * fingerprinted original (D44: twins, content_markdown, llms-full.txt and
 * feeds), and `siteUrl` inserted at each of `linkOffsets` (the site-root
 * links that D53 makes absolute), in one pass over the original offsets.
 */
export function finishMarkdown(markdown: string, refs: readonly ImageRef[], urls: readonly (string | undefined)[], linkOffsets: readonly number[] = [], siteUrl = ''): string {
  const edits: { start: number; end: number; text: string }[] = [];
  refs.forEach((ref, i) => {
    const url = urls[i];
    if (!url) return;
    const title = ref.title === null ? '' : ` "${escapeTitle(ref.title)}"`;
    edits.push({ start: ref.start, end: ref.end, text: ref.label === undefined ? `![${escapeAlt(ref.alt)}](${url}${title})` : `[${ref.label}]: ${url}${title}` });
  });
  // A link inside a rewritten image (its definition) is already absolute.
  for (const at of linkOffsets) if (!edits.some((e) => at >= e.start && at < e.end)) edits.push({ start: at, end: at, text: siteUrl });
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of edits) {
    if (e.start < at) continue;
    out += markdown.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + markdown.slice(at);
}
