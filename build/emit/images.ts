// The image files of a build (D44, D45): each local image named by published
// content is found, checked and fingerprinted; sharp's work (a worker, see
// image-pool.ts) runs only for bytes the cache has not seen. The result is
// the table the model is assembled with, and the /media/ files to write.
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, extname, relative, resolve } from 'node:path';
import { below } from '../content/paths.js';
import type { MediaImage } from '../content/image-refs.js';
import type { FileImage } from '../content/kinds.js';
import { ContentError, type Problem } from '../content/problems.js';
import type { Headers } from '../core/http.js';
import type { SiteModel } from '../core/site-model.js';
import { assembleSite, isPublished, type ReadContent, type SiteOptions } from '../site.js';
import { imageKey, type ImageTable } from '../site-images.js';
import { ImageCache, type ImageMeta } from './image-cache.js';
import { processAll } from './image-pool.js';
import { IMAGE_TYPES } from './image-process.js';

/** Cloudflare Pages' limit per file (D43), so every host can serve it. */
export const MAX_IMAGE_BYTES = 25 * 1024 * 1024;
const HASH_LENGTH = 20;

/** A file under /media/, written by the build and routed through the manifest. */
export interface MediaFile {
  /** Relative to dist/, e.g. media/3f…a1.png. */
  path: string;
  size: number;
  headers: Headers;
  read: () => Promise<Uint8Array>;
}

export interface ResolvedImages {
  table: ImageTable;
  files: MediaFile[];
  /** Distinct images, and of them those sharp processed in this build (the rest came from the cache). */
  images: number;
  processed: number;
}

export const MEDIA_CACHE = 'public, max-age=31536000, immutable';
/** An SVG opened directly must not run script (D44). */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

export function mediaHeaders(type: string): Headers {
  return {
    'content-type': type,
    'cache-control': MEDIA_CACHE,
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
    ...(type === 'image/svg+xml' ? { 'content-security-policy': SVG_POLICY } : {}),
  };
}

/** Where a path as written points (D44): relative to the Markdown file's folder, or from content/static/ with a leading /. */
export function locateImage(contentDir: string, file: string, src: string): string {
  let path = src.replace(/[?#].*$/, '');
  try {
    path = decodeURI(path);
  } catch {
    // Keep it as written; it is then reported as missing.
  }
  return path.startsWith('/') ? resolve(contentDir, 'static', `.${path}`) : resolve(dirname(resolve(file)), path);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const TYPES_HINT = 'PNG, JPEG, GIF, WebP, AVIF or SVG';

/** The local images of what the site publishes: the profile, services, projects and published posts. */
function publishedImages(content: ReadContent, now: Date): FileImage[] {
  const today = now.toISOString().slice(0, 10);
  return [
    ...(content.profile?.read?.images ?? []),
    ...content.services.flatMap((r) => r.read?.images ?? []),
    ...content.projects.flatMap((r) => r.read?.images ?? []),
    ...content.posts.flatMap((r) => (r.read && isPublished(r.read, today) ? r.read.images : [])),
  ];
}

interface Found {
  path: string;
  ext: string;
  size: number;
  hash: string;
  /** The bytes, when this build read them. */
  bytes?: Uint8Array;
  refs: FileImage[];
}

/** Where the cache is, and whether this run is folio check's, which writes nothing: it reads the cache, never adds to it, and makes no variants. */
export interface ImageCacheOptions {
  cache?: string | null;
  check?: boolean;
}

/** With `whole`, `content` is the whole site: what its images do not use leaves the cache (ImageCache.prune). */
type ResolveOptions = { now: Date; whole?: boolean } & ImageCacheOptions;

export async function resolveImages(content: ReadContent, options: ResolveOptions): Promise<ResolvedImages> {
  const refs = publishedImages(content, options.now);
  const cache = options.cache ? await ImageCache.open(options.cache, options.check) : null;
  if (!refs.length) {
    if (options.whole) await cache?.prune().then(() => cache.save());
    return { table: new Map(), files: [], images: 0, processed: 0 };
  }
  const contentDir = resolve(content.dir);
  const realContent = await realpath(contentDir).catch(() => contentDir);
  const problems: Problem[] = [];
  const report = (ref: FileImage, message: string, hint: string) =>
    problems.push({ file: ref.file, line: ref.line, column: ref.column, message, hint });
  const byPath = new Map<string, FileImage[]>();
  for (const ref of refs) {
    const path = locateImage(contentDir, ref.file, ref.src);
    if (!below(contentDir, path)) {
      report(
        ref,
        `The image ${ref.src} is outside the content folder (${relative(process.cwd(), path) || path}).`,
        `Move the file into ${content.dir}/ and name it from there: ./img/name.png beside the Markdown file, or /name.png for ${content.dir}/static/name.png.`,
      );
      continue;
    }
    const list = byPath.get(path);
    if (list) list.push(ref);
    else byPath.set(path, [ref]);
  }

  const found = (
    await Promise.all(
      [...byPath].map(async ([path, list]): Promise<Found | null> => {
        const shown = relative(process.cwd(), path) || path;
        const where = (ref: FileImage) =>
          ref.src.startsWith('/')
            ? `a path starting with / is read from ${content.dir}/static/`
            : `a relative path is read from the Markdown file's folder, ${dirname(ref.file)}/`;
        const info = await stat(path).catch(() => null);
        if (!info?.isFile()) {
          for (const ref of list)
            report(
              ref,
              `The image ${ref.src} is missing: ${shown} ${info ? 'is not a file' : 'does not exist'}.`,
              `Check the path and the file name (${where(ref)}).`,
            );
          return null;
        }
        // A symbolic link may point out of content/ while its own path is inside.
        if (!below(realContent, await realpath(path))) {
          for (const ref of list)
            report(
              ref,
              `The image ${ref.src} is a link to a file outside the content folder.`,
              `Copy the file into ${content.dir}/ instead of linking to it.`,
            );
          return null;
        }
        const ext = extname(path).slice(1).toLowerCase();
        if (!IMAGE_TYPES[ext]) {
          for (const ref of list)
            report(
              ref,
              `The image ${ref.src} is a .${ext || '(no extension)'} file, which folio does not publish as an image.`,
              `Convert it to ${TYPES_HINT} and name it with that extension.`,
            );
          return null;
        }
        if (info.size > MAX_IMAGE_BYTES) {
          for (const ref of list)
            report(
              ref,
              `The image ${ref.src} is ${mib(info.size)}, over the 25 MiB a file may have on Cloudflare Pages.`,
              'Resize or compress it: a 2,400-pixel-wide JPEG or WebP is rarely over 1 MiB.',
            );
          return null;
        }
        const known = cache?.knownHash(path, info.size, info.mtimeMs);
        if (known) return { path, ext, size: info.size, hash: known, refs: list };
        const bytes = new Uint8Array(await readFile(path));
        const hash = createHash('sha256').update(bytes).digest('hex').slice(0, HASH_LENGTH);
        cache?.remember(path, info.size, info.mtimeMs, hash);
        return { path, ext, size: bytes.byteLength, hash, bytes, refs: list };
      }),
    )
  ).filter((f): f is Found => f !== null);

  // What sharp made of each distinct image: from the cache, or processed now.
  const keyOf = (f: Found) => `${f.hash}.${f.ext}`;
  const metas = new Map<string, ImageMeta>();
  const made = new Map<string, Uint8Array[]>();
  const todo: Found[] = [];
  for (const f of found) {
    if (metas.has(keyOf(f)) || todo.some((t) => keyOf(t) === keyOf(f))) continue;
    const meta = await cache?.meta(keyOf(f));
    if (meta) metas.set(keyOf(f), meta);
    else todo.push(f);
  }
  const results = await processAll(
    await Promise.all(
      todo.map(async (f) => ({ bytes: f.bytes ?? new Uint8Array(await readFile(f.path)), ext: f.ext, variants: !options.check })),
    ),
  );
  const rejected = new Map<string, string>();
  await Promise.all(
    todo.map(async (f, i) => {
      const result = results[i]!;
      if ('rejected' in result) return void rejected.set(keyOf(f), result.rejected);
      const meta: ImageMeta = {
        width: result.width,
        height: result.height,
        variants: result.variants.map((v) => ({ width: v.width, height: v.height, size: v.body.byteLength })),
      };
      metas.set(keyOf(f), meta);
      made.set(
        keyOf(f),
        result.variants.map((v) => v.body),
      );
      await cache?.store(
        keyOf(f),
        meta,
        result.variants.map((v) => v.body),
      );
    }),
  );
  for (const f of found) {
    const reason = rejected.get(keyOf(f));
    if (reason)
      for (const ref of f.refs)
        report(
          ref,
          `The image ${ref.src} cannot be used: ${reason}.`,
          `Open it in an image viewer and export it again as ${TYPES_HINT}, with the matching extension.`,
        );
  }
  if (problems.length) {
    await cache?.save();
    throw new ContentError(
      problems.sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : a.file < b.file ? -1 : 1)),
    );
  }

  const table = new Map<string, MediaImage>();
  const files = new Map<string, MediaFile>();
  for (const f of found) {
    const meta = metas.get(keyOf(f))!;
    const original = `media/${f.hash}.${f.ext}`;
    files.set(original, {
      path: original,
      size: f.size,
      headers: mediaHeaders(IMAGE_TYPES[f.ext]!.type),
      read: async () => f.bytes ?? new Uint8Array(await readFile(f.path)),
    });
    const variants = meta.variants.map((v, i) => {
      const path = `media/${f.hash}-${v.width}.webp`;
      const body = made.get(keyOf(f))?.[i];
      files.set(path, {
        path,
        size: v.size,
        headers: mediaHeaders('image/webp'),
        read: async () => body ?? new Uint8Array(await readFile(cache!.variantFile(keyOf(f), v.width))),
      });
      return { url: `/${path}`, width: v.width };
    });
    const image: MediaImage = { url: `/${original}`, width: meta.width, height: meta.height, variants };
    for (const ref of f.refs) table.set(imageKey(ref.file, ref.src), image);
  }
  if (options.whole) await cache?.prune();
  await cache?.save();
  return { table, files: [...files.values()], images: metas.size, processed: todo.length };
}

/**
 * The model with its images resolved: image problems and every other content
 * problem are reported together, as one ContentError.
 */
export async function assembleWithImages(
  content: ReadContent,
  options: SiteOptions & ImageCacheOptions,
): Promise<{ model: SiteModel; images: ResolvedImages }> {
  let images: ResolvedImages | null = null;
  let problems: Problem[] = [];
  try {
    images = await resolveImages(content, { ...options, whole: true });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    problems = error.problems;
  }
  let model: SiteModel;
  try {
    model = assembleSite(content, { ...options, images: images?.table });
  } catch (error) {
    if (error instanceof ContentError && problems.length) throw new ContentError([...error.problems, ...problems], error.unchecked);
    throw error;
  }
  if (!images) throw new ContentError(problems);
  return { model, images };
}
