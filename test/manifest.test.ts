// The manifest's file (emit/manifest.ts): written from the build's Map as
// JSON.stringify(…, null, 2) writes the plain object, and after an edit that
// kept every address in its place, patched from the previous file: byte for
// byte what it would be made whole, or made whole when the previous file does
// not hold the routes where they are expected.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH, type FileRoute, type Manifest } from '../build/core/files.js';
import { jsonText } from '../build/core/http.js';
import { manifestBytes, type BuiltManifest } from '../build/emit/manifest.js';
import { builtManifest, buildInto } from './helpers/site.js';

let bytes: Buffer;
let file: Manifest;

beforeAll(async () => {
  const built = await buildInto();
  bytes = await readFile(join(built.out, MANIFEST_PATH));
  file = JSON.parse(bytes.toString('utf8')) as Manifest;
});

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const whole = (m: BuiltManifest) => text(manifestBytes(m, null));

/** The sample's manifest with the routes at `places` changed: their own headers, or their file. */
function edited(places: readonly number[]): BuiltManifest {
  const m = builtManifest(structuredClone(file));
  const targets = [...m.routes.keys()];
  for (const place of places) {
    const target = targets[place]!;
    const [name, set, own] = m.routes.get(target)!;
    const route: FileRoute = own ? [name, set, { ...own, 'x-markdown-tokens': '77' }] : [`${name}.moved`, set];
    m.routes.set(target, route);
  }
  return m;
}

describe('the manifest file', () => {
  it('is the plain object as jsonText writes it, from the Map', () => {
    const m = builtManifest(file);
    expect(m.routes.size).toBeGreaterThan(200);
    expect(whole(m)).toBe(jsonText(file));
    expect(whole(m)).toBe(bytes.toString('utf8'));
  });

  it('after an edit, is the previous file with the routes that changed and the text around them made again', () => {
    const routes = file.routes;
    const count = Object.keys(routes).length;
    // Some routes with their own headers, some without, the first and the last among them.
    const withOwn = Object.values(routes).findIndex((r) => r.length === 3);
    const places = [0, 1, withOwn, withOwn + 1, Math.floor(count / 2), count - 1];
    const m = edited(places);
    m.build = 'another-build-id';
    m.fallbacks = { ...m.fallbacks, '/*': { ...m.fallbacks['/*']!, status: 404 } };
    m.header_sets = [...m.header_sets, { 'content-type': 'text/plain' }];
    const changed = new Set(places);
    const patched = text(manifestBytes(m, { bytes, carried: (place) => !changed.has(place) }));
    expect(patched).toBe(whole(m));
    expect(patched).toContain('another-build-id');
    expect(patched).not.toBe(bytes.toString('utf8'));
    // Every route carried: the previous file but for what is around the routes.
    expect(text(manifestBytes(builtManifest(file), { bytes, carried: () => true }))).toBe(bytes.toString('utf8'));
  });

  it('is made whole when the previous file holds fewer or more routes, or none where they are expected', () => {
    const m = builtManifest(file);
    const fewer = builtManifest(structuredClone(file));
    fewer.routes.delete([...fewer.routes.keys()].at(-1)!);
    const more = builtManifest(structuredClone(file));
    more.routes.set('/extra', ['extra.html', 0]);
    for (const previous of [whole(fewer), whole(more), '{}\n', 'not json at all', '']) {
      expect(text(manifestBytes(m, { bytes: Buffer.from(previous), carried: () => true }))).toBe(whole(m));
    }
    // One more route than the previous file, carried or not: made whole.
    expect(text(manifestBytes(more, { bytes, carried: () => false }))).toBe(whole(more));
  });
});
