// Shared test helpers: build a content tree into a temp dir and serve it on 127.0.0.1.
import { rmSync } from 'node:fs';
import { copyFile, cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { build, type BuildOptions, type BuildResult } from '../../build/emit/build.js';
import { historyFile } from '../../build/emit/cache.js';
import { IMAGE_CACHE_PREFIX } from '../../build/emit/image-cache.js';
import type { BuiltManifest } from '../../build/emit/manifest.js';
import type { Manifest } from '../../build/core/files.js';
import type { Site } from '../../build/core/model.js';
import { startServer } from '../../build/serve.js';

/** The build clock of every test: the sample's scheduled post (2027-03-01) stays unpublished. */
export const NOW = new Date('2026-11-22T00:00:00Z');

export async function tempDir(prefix = 'folio-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Copies content/ (or another tree) into a fresh temp dir that a test may edit. */
export async function copyContent(from = 'content'): Promise<string> {
  const dir = await tempDir('folio-content-');
  await cp(from, dir, { recursive: true });
  return dir;
}

type Built = Awaited<ReturnType<typeof build>> & { out: string };

/**
 * Image variants (D44) that clean builds alone made, kept once per test
 * worker: decoding and encoding the sample's images was some 200 ms of each
 * clean build's 550, and a variant's bytes depend on its image alone.
 */
let variants: string | null = null;

/**
 * A clean build: a cache with nothing in it but the image variants of
 * earlier clean builds, so every response is rendered and asked for afresh.
 * With `historyOf`, the builds of `historyOf.out` with `historyOf.cache`:
 * the record of what they published is an input (D61), and a clean build
 * compared with them starts from it too.
 */
export async function cleanBuild(options: Omit<BuildOptions, 'cache'>, historyOf?: { cache: string; out: string }): Promise<BuildResult> {
  const cache = await tempDir('folio-clean-cache-');
  try {
    if (variants) await cp(variants, cache, { recursive: true });
    if (historyOf) await copyFile(historyFile(historyOf.cache, historyOf.out), historyFile(cache, options.out));
    const result = await build({ ...options, cache });
    if (!variants) {
      const kept = await tempDir('folio-variants-');
      for (const name of (await readdir(cache)).filter((name) => name.startsWith(IMAGE_CACHE_PREFIX)))
        await cp(join(cache, name), join(kept, name), { recursive: true });
      variants = kept;
    }
    return result;
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
}

/**
 * The sample as every test builds it, made once per test worker (the tests
 * share a worker's modules, vitest.config.ts) and copied for each caller,
 * who may change or delete its copy. Nothing may change the result's model.
 */
let sample: Promise<Built> | null = null;

async function buildOnce(content: string, now: Date, siteUrl: string | undefined): Promise<Built> {
  const out = join(await tempDir('folio-dist-'), 'dist');
  return { out, ...(await cleanBuild({ content, out, now, siteUrl })) };
}

export async function buildInto(content = 'content', options: { now?: Date; siteUrl?: string } = {}): Promise<Built> {
  if (content !== 'content' || options.now || options.siteUrl) return buildOnce(content, options.now ?? NOW, options.siteUrl);
  if (!sample) {
    sample = buildOnce(content, NOW, undefined);
    const { out } = await sample;
    process.once('exit', () => rmSync(join(out, '..'), { recursive: true, force: true }));
  }
  const built = await sample;
  const out = join(await tempDir('folio-dist-'), 'dist');
  await cp(built.out, out, { recursive: true });
  return { ...built, out };
}

/** Builds and serves; close() stops the server and removes the output. */
export async function serveBuilt(content = 'content', options: { now?: Date } = {}) {
  const built = await buildInto(content, options);
  const server = await startServer({ dir: built.out, port: 0, host: '127.0.0.1' });
  return {
    ...built,
    url: server.url,
    /** A URL of the test server for a site path, or for an absolute site URL. */
    at: (path: string) => server.url + (path.startsWith('http') ? new URL(path).pathname + new URL(path).search : path),
    close: async () => {
      await server.close();
      await rm(join(built.out, '..'), { recursive: true, force: true });
    },
  };
}

/** A hash of every file under a directory, and its every folder (`name/`, an empty one too), to prove it did not change. */
export async function treeHash(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (sub: string) => {
    for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        out[`${rel}/`] = 'folder';
        await walk(rel);
      } else
        out[rel] = createHash('sha256')
          .update(await readFile(join(dir, rel)))
          .digest('hex');
    }
  };
  await walk('');
  return out;
}

/** The files of a treeHash, without its folders. */
export const treeFiles = (tree: Record<string, string>): string[] => Object.keys(tree).filter((path) => !path.endsWith('/'));

/** A manifest read from its file, as a build holds it (emit/manifest.ts). */
export function builtManifest(manifest: Manifest): BuiltManifest {
  return { ...manifest, routes: new Map(Object.entries(manifest.routes)) };
}

/** The D20 page list, written from the spec and the model rather than read from the code under test. */
export function expectedPages(site: Site): string[] {
  return [
    '/',
    '/about',
    '/services',
    ...site.services.map((s) => `/services/${s.id}`),
    '/blog',
    ...site.tags.map((t) => `/blog/tags/${t.tag}`),
    ...site.posts.map((p) => `/blog/${p.slug}`),
    '/projects',
    ...site.projects.map((p) => `/projects/${p.id}`),
    '/developers',
  ];
}
