// The two places the conformance suite runs against: `folio serve` and
// Cloudflare's own runtime (`wrangler pages dev`), both on 127.0.0.1 over the
// same built dist/.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from '../../build/serve.js';
import { startWrangler } from '../../scripts/wrangler.js';
import { buildInto, copyContent } from '../helpers/site.js';

export interface Target {
  /** Base URL, no trailing slash. */
  url: string;
  /** The dist/ directory it serves. */
  dist: string;
  close(): Promise<void>;
}

/**
 * A static file whose name a URL must escape (a space, `&`, a letter outside
 * ASCII): requested as a browser sends it, it is found by its decoded path
 * on every target, as a CDN finds it (D43).
 */
export const ESCAPED_STATIC = { path: '/files/rates & terms – 2026.txt', text: 'Day rates and terms, 2026.\n' };

/** Builds the sample site, with ESCAPED_STATIC among its static files, into a temp dir. */
export async function buildSample(): Promise<{ dist: string; remove(): Promise<void> }> {
  const content = await copyContent();
  await mkdir(join(content, 'static/files'), { recursive: true });
  await writeFile(join(content, 'static', ESCAPED_STATIC.path), ESCAPED_STATIC.text);
  const built = await buildInto(content);
  return {
    dist: built.out,
    remove: async () => {
      await rm(join(built.out, '..'), { recursive: true, force: true });
      await rm(content, { recursive: true, force: true });
    },
  };
}

export async function serveTarget(dist: string): Promise<Target> {
  const server = await startServer({ dir: dist, port: 0, host: '127.0.0.1' });
  return { url: server.url, dist, close: server.close };
}

/**
 * `wrangler pages dev` on dist/ with the repository's functions/, offline
 * (scripts/wrangler.js). Resolves once a function route answers, so the
 * functions bundle is up.
 */
export function wranglerTarget(dist: string, timeoutMs = 120_000): Promise<Target> {
  return startWrangler(dist, {
    timeoutMs,
    ready: (url) => fetch(`${url}/api/v1`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status === 200),
  }).then((w) => ({ ...w, dist }));
}
