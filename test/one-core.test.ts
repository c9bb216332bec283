// D38: every precomputed file, with its manifest headers, equals what respond()
// answers for the same request; and `folio serve` answers each target the same
// way whether the file or the function serves it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH, routeHeaders, SITE_PATH, type Manifest } from '../build/core/files.js';
import { etag, request } from '../build/core/http.js';
import type { Site } from '../build/core/model.js';
import { respond } from '../build/core/respond.js';
import { Ledger } from '../build/emit/ledger.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { createHandler } from '../build/runtime/handler.js';
import { fileReader } from '../build/serve-files.js';
import { serveBuilt } from './helpers/site.js';

let s: Awaited<ReturnType<typeof serveBuilt>>;
let manifest: Manifest;

beforeAll(async () => {
  s = await serveBuilt();
  manifest = JSON.parse(await readFile(join(s.out, MANIFEST_PATH), 'utf8'));
});
afterAll(() => s?.close());

describe('one core (D38, D39)', () => {
  it('precomputes every post, project, filter value and default page', () => {
    const targets = Object.keys(manifest.routes);
    for (const p of s.site.posts) expect(targets).toContain(`/api/v1/posts/${p.slug}`);
    for (const p of s.site.projects) expect(targets).toContain(`/api/v1/projects/${p.id}`);
    for (const status of ['live', 'sunset', 'delivered']) expect(targets).toContain(`/api/v1/projects?status=${status}`);
    for (const t of s.site.tags) expect(targets).toContain(`/api/v1/posts?tag=${t.tag}`);
    expect(targets).toEqual(
      expect.arrayContaining(['/api/v1', '/api/v1/profile', '/api/v1/services', '/api/v1/posts', '/api/v1/projects']),
    );
  });

  it("keeps a page's link to its twin and a twin's token estimate with the route, so pages share their header sets", () => {
    const pages = Object.entries(manifest.routes).filter(([, route]) =>
      routeHeaders(manifest.header_sets, route)['content-type']!.startsWith('text/html'),
    );
    const twins = Object.entries(manifest.routes).filter(([target]) => target.endsWith('.md') || target === '/index.md');
    expect(pages.length).toBeGreaterThan(40);
    expect(twins.length).toBeGreaterThan(40);
    for (const [target, route] of pages) {
      const twin = target === '/' ? '/index.md' : `${target}.md`;
      expect(route[2], target).toEqual({ link: `<${twin}>; rel="alternate"; type="text/markdown"` });
      expect(manifest.header_sets[route[1]], target).not.toHaveProperty('link');
    }
    for (const [target, route] of twins) {
      expect(route[2]?.['x-markdown-tokens'], target).toMatch(/^[1-9]\d*$/);
      // A twin names its page canonical, by its absolute address, as the page's own <link rel="canonical"> does.
      const page = target === '/index.md' ? '/' : target.slice(0, -'.md'.length);
      expect(route[2]?.link, target).toBe(`<${manifest.site_url}${page}>; rel="canonical"`);
      expect(manifest.header_sets[route[1]], target).not.toHaveProperty('link');
    }
    // Pages come in a few kinds (a page, a list, a post), not one set each.
    expect(new Set(pages.map(([, route]) => route[1])).size).toBeLessThanOrEqual(3);
    expect(new Set(twins.map(([, route]) => route[1])).size).toBeLessThanOrEqual(3);
  });

  it("refuses a file's own headers where its route cannot carry them (404.html, static files, images) rather than drop them", () => {
    const ledger = new Ledger(s.site, { write: async () => {}, reuse: async () => {} }, null);
    expect(() => ledger.wholeSet({ 'content-type': 'text/markdown; charset=utf-8', 'x-markdown-tokens': '12' })).toThrow(
      /x-markdown-tokens would be lost .* report this as a bug/,
    );
    expect(ledger.wholeSet({ 'content-type': 'text/css; charset=utf-8' })).toBe(0);
    expect(ledger.manifest.header_sets).toEqual([{ 'content-type': 'text/css; charset=utf-8' }]);
  });

  it('writes files whose bytes and headers equal respond() for the same request', async () => {
    const rt = memoryRuntime(s.site);
    let checked = 0;
    // Files of content/static/ are copied, not answered (D43): their bytes are the content's own.
    const copied = new Set(s.site.static.map((f) => f.path));
    expect(copied.size).toBeGreaterThan(0);
    // Image files (D44) are copies of content files, not responses: the next test serves them.
    const responses = Object.entries(manifest.routes).filter(([target]) => !target.startsWith('/media/'));
    for (const [target, route] of responses) {
      const file = route[0];
      const bytes = await readFile(join(s.out, file));
      if (copied.has(target)) {
        expect(bytes.equals(await readFile(join('content/static', target))), target).toBe(true);
        checked++;
        continue;
      }
      const live = await respond(request('GET', target), rt);
      expect(live.status, target).toBe(200);
      expect(Buffer.from(live.body!).equals(bytes), target).toBe(true);
      expect({ ...routeHeaders(manifest.header_sets, route), etag: etag(bytes) }, target).toEqual(live.headers);
      checked++;
    }
    expect(checked).toBe(responses.length);
  });

  it('serves each image file under /media/ (D44) with its manifest headers, from folio serve and from the function alone', async () => {
    const handler = createHandler(fileReader(s.out));
    const media = Object.keys(manifest.routes).filter((t) => t.startsWith('/media/'));
    expect(media.length).toBeGreaterThan(0);
    for (const target of media) {
      const route = manifest.routes[target]!;
      const file = route[0];
      const bytes = await readFile(join(s.out, file));
      const res = await fetch(s.at(target));
      expect(res.status, target).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes), target).toBe(true);
      for (const [name, value] of Object.entries(routeHeaders(manifest.header_sets, route)))
        expect(res.headers.get(name), `${target} ${name}`).toBe(value);
      const viaFunction = await handler(request('GET', target));
      expect(viaFunction.status, target).toBe(200);
      expect(Buffer.from(viaFunction.body!).equals(bytes), target).toBe(true);
      expect({ ...viaFunction.headers, etag: undefined }, target).toEqual({
        ...routeHeaders(manifest.header_sets, route),
        etag: undefined,
      });
    }
  });

  it('gives the functions the same answers from the runtime model as the build had', async () => {
    // The function's model is site.json (no rendered HTML); it must answer the API identically.
    const runtimeSite = JSON.parse(await readFile(join(s.out, SITE_PATH), 'utf8')) as Site;
    const full = memoryRuntime(s.site);
    const lean = memoryRuntime(runtimeSite);
    for (const target of [
      '/api/v1/posts?limit=7&offset=3',
      '/api/v1/posts?tag=ssh&limit=1',
      '/api/v1/posts/bounce-handling',
      '/api/v1/projects?status=live',
      '/api/v1/nope',
      '/api/v1/posts?limit=0',
    ]) {
      const a = await respond(request('GET', target), full);
      const b = await respond(request('GET', target), lean);
      expect(b, target).toEqual(a);
    }
  });

  it('serves each target over HTTP with the headers and bytes of the file, static or through the function', async () => {
    const handler = createHandler(fileReader(s.out));
    for (const target of Object.keys(manifest.routes)
      .filter((t) => t.startsWith('/api/'))
      .slice(0, 60)) {
      const route = manifest.routes[target]!;
      const file = route[0];
      const bytes = await readFile(join(s.out, file));
      const res = await fetch(s.at(target));
      expect(res.status, target).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes), target).toBe(true);
      for (const [name, value] of Object.entries(routeHeaders(manifest.header_sets, route)))
        expect(res.headers.get(name), `${target} ${name}`).toBe(value);
      expect(res.headers.get('etag')).toBe(etag(bytes));
      // The function alone (as on a CDN, for a query string) answers the same.
      const viaFunction = await handler(request('GET', target));
      expect(Buffer.from(viaFunction.body!).equals(bytes), target).toBe(true);
    }
  });

  it('maps a query string the build did not write to the precomputed file of its canonical form', async () => {
    const handler = createHandler(fileReader(s.out));
    const canonical = await readFile(join(s.out, manifest.routes['/api/v1/posts?tag=ssh']![0]));
    for (const target of ['/api/v1/posts?tag=SSH', '/api/v1/posts?limit=20&tag=ssh&offset=0', '/api/v1/posts?utm=1&tag=ssh']) {
      const reply = await handler(request('GET', target));
      expect(reply.status).toBe(200);
      expect(Buffer.from(reply.body!).equals(canonical), target).toBe(true);
    }
  });
});

describe('ETags (D18)', () => {
  // etag() reads aligned bodies a 32-bit word at a time and others byte by
  // byte; a file read back, a slice or a copy must get the tag the build gave.
  it('gives the same tag to the same bytes, aligned or not, and a different one to other bytes', () => {
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    for (const length of [0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 64, 1000, 4099, 65_537]) {
      const aligned = Uint8Array.from({ length }, random);
      const unaligned = new Uint8Array(length + 1).subarray(1);
      unaligned.set(aligned);
      expect(unaligned.byteOffset % 4).toBe(1);
      expect(etag(unaligned), `length ${length}`).toBe(etag(aligned));
      if (length > 0) {
        const changed = aligned.slice();
        changed[length - 1] ^= 1;
        expect(etag(changed), `length ${length}`).not.toBe(etag(aligned));
        changed[length - 1] ^= 1;
        changed[0] ^= 0x80;
        expect(etag(changed), `length ${length}`).not.toBe(etag(aligned));
      }
    }
  });

  it('keeps the tags of earlier versions: the same bytes give the same tag', () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 31 + 7) & 0xff);
    expect(etag(bytes)).toBe('"ec7tgw4n121p7ugarn580-rs"');
    expect(etag(bytes.subarray(3, 10))).toBe('"1nsm8fdj5ucw803x9fjn1-7"');
    expect(etag(new TextEncoder().encode('folio'))).toBe('"1on1l1oc98j2xqxpppx68-5"');
  });
});
