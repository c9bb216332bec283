// The image cache (D44), in .folio-cache/images-<version>/: what sharp made
// of each image, by the hash of its bytes, so an unchanged image is never
// decoded again; and the hash of each file by path, size and mtime, so an
// unchanged image is not even read. Like the record cache, only a shortcut:
// anything missing or unreadable is made again.
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { atomicWrite, packageVersion } from './cache.js';
import { workerScript } from './workers.js';
import { processingVersion } from './image-process.js';
import { makeDirs } from './make-dirs.js';

export interface ImageMeta {
  width: number | null;
  height: number | null;
  variants: { width: number; height: number; size: number }[];
}

interface Known {
  size: number;
  mtime: number;
  hash: string;
}

/** The image cache's folders in a cache directory start with this; the rest names sharp's version and the settings. */
export const IMAGE_CACHE_PREFIX = 'images-';

export class ImageCache {
  private index: Record<string, Known> = {};
  private dirty = false;
  /** The images (keys) and image paths this build asked about: what prune() keeps. */
  private readonly used = new Set<string>();
  private readonly seen = new Set<string>();

  private constructor(
    readonly dir: string,
    private readonly readOnly: boolean,
  ) {}

  /** The cache under `cacheDir`; a read-only one answers from what is there and never writes. */
  static async open(cacheDir: string, readOnly = false): Promise<ImageCache> {
    // sharp's version and the settings, and the compiled worker's code when there is one.
    const worker = workerScript('image-worker');
    const version =
      processingVersion(packageVersion('sharp', dirname(fileURLToPath(import.meta.url)))) +
      (worker ? createHash('sha1').update(readFileSync(worker)).digest('hex') : '');
    const cache = new ImageCache(
      join(cacheDir, `${IMAGE_CACHE_PREFIX}${createHash('sha1').update(version).digest('hex').slice(0, 12)}`),
      readOnly,
    );
    try {
      cache.index = JSON.parse(await readFile(join(cache.dir, 'index.json'), 'utf8')) as Record<string, Known>;
    } catch {
      // No index yet: every file is read once.
    }
    return cache;
  }

  /** The hash of the file at `path` when its size and mtime are as last seen. */
  knownHash(path: string, size: number, mtime: number): string | undefined {
    this.seen.add(path);
    const known = this.index[path];
    return known && known.size === size && known.mtime === mtime ? known.hash : undefined;
  }

  remember(path: string, size: number, mtime: number, hash: string): void {
    this.seen.add(path);
    this.index[path] = { size, mtime, hash };
    this.dirty = true;
  }

  variantFile(key: string, width: number): string {
    return join(this.dir, `${key}-${width}.webp`);
  }

  async meta(key: string): Promise<ImageMeta | null> {
    this.used.add(key);
    try {
      return JSON.parse(await readFile(join(this.dir, `${key}.json`), 'utf8')) as ImageMeta;
    } catch {
      return null;
    }
  }

  /** Stores a processed image: its variants first, then the metadata that names them. */
  async store(key: string, meta: ImageMeta, variants: Uint8Array[]): Promise<void> {
    this.used.add(key);
    if (this.readOnly) return;
    try {
      makeDirs(this.dir);
      await Promise.all(variants.map((body, i) => atomicWrite(this.variantFile(key, meta.variants[i]!.width), body)));
      await atomicWrite(join(this.dir, `${key}.json`), JSON.stringify(meta));
    } catch (error) {
      console.error(`folio: could not cache an image in ${this.dir} (${(error as Error).message}); the next build processes it again.`);
    }
  }

  /**
   * Forgets what this build did not ask about: the processed files of images
   * no published page shows any more and the paths no longer named, as the
   * record cache keeps only the records a build used (a CI cache then stays
   * the size of the site). For a build of the whole site; never fails it.
   */
  async prune(): Promise<void> {
    if (this.readOnly) return;
    for (const path of Object.keys(this.index))
      if (!this.seen.has(path)) {
        delete this.index[path];
        this.dirty = true;
      }
    const names = await readdir(this.dir).catch(() => [] as string[]);
    // `<key>.json` and `<key>-<width>.webp`; index.json and a writer's .tmp files are not images.
    const unused = names.filter((name) => {
      const key = /^(.+?)(?:\.json|-\d+\.webp)$/.exec(name)?.[1];
      return key !== undefined && name !== 'index.json' && !this.used.has(key);
    });
    await Promise.all(unused.map((name) => rm(join(this.dir, name), { force: true }).catch(() => undefined)));
  }

  async save(): Promise<void> {
    if (!this.dirty || this.readOnly) return;
    try {
      makeDirs(this.dir);
      await atomicWrite(join(this.dir, 'index.json'), JSON.stringify(this.index));
    } catch {
      // The next build reads the files again.
    }
  }
}
