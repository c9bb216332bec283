// The sample site served on 127.0.0.1 for the tests of its pages, twins,
// developer page and 404s, with its manifest and a GET by site path.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { MANIFEST_PATH, type Manifest } from '../../build/core/files.js';
import { serveBuilt } from './site.js';

export type ServedSample = Awaited<ReturnType<typeof serveBuilt>> & {
  /** The build's manifest, as read from its file. */
  manifest: Manifest;
  /** A GET of a site path from the test server. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
};

/** The sample, built and served before the file's tests and stopped after them; its fields are set once beforeAll has run. */
export function servedSample(): ServedSample {
  const s = {
    get: (path: string, headers: Record<string, string> = {}) => fetch(s.url + path, { headers }),
  } as ServedSample;
  beforeAll(async () => {
    Object.assign(s, await serveBuilt());
    s.manifest = JSON.parse(await readFile(join(s.out, MANIFEST_PATH), 'utf8')) as Manifest;
  });
  afterAll(() => s.close?.());
  return s;
}

/** The values of a comma-separated header such as Vary, trimmed and in lower case. */
export function splitHeader(value: string | null): string[] {
  return (value ?? '').split(',').map((v) => v.trim().toLowerCase());
}
