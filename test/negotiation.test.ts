// D21: Accept negotiation between a page and its Markdown twin, as a table
// of cases for prefersMarkdown and the same table over HTTP against a real
// `folio serve` (precomputed files and the function path alike).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefersMarkdown } from '../build/core/negotiate.js';
import { serveBuilt } from './helpers/site.js';

/** [Accept header (undefined: none sent), Markdown expected] — RFC 9110 §12.5.1 weights. */
const TABLE: [string | undefined, boolean][] = [
  [undefined, false],
  ['', false],
  ['text/markdown', true],
  ['text/html', false],
  ['*/*', false],
  ['text/*', false],
  // Ties give HTML.
  ['text/markdown, text/html', false],
  ['text/html, text/markdown', false],
  ['text/markdown;q=0.5, text/html;q=0.5', false],
  // Higher weight wins, in either order.
  ['text/markdown;q=1, text/html;q=0.9', true],
  ['text/html;q=0.5, text/markdown;q=0.8', true],
  ['text/markdown;q=0.9, text/html', false],
  ['text/markdown ; q=0.7 , text/html ; q=0.6', true],
  // Wildcards give their weight to what is not named more specifically.
  ['text/markdown, */*;q=0.1', true],
  ['text/*;q=0.5, text/markdown', true],
  ['text/markdown;q=0.3, text/*;q=0.4', false],
  ['text/html;q=0, */*', true],
  ['text/markdown;q=0, */*', false],
  ['text/markdown;q=0', false],
  ['text/markdown;q=0.5', true],
  // Parameters, case and what browsers and tools send.
  ['text/markdown; charset=utf-8', true],
  ['TEXT/Markdown', true],
  ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', false],
  ['application/json', false],
  ['text/plain, text/markdown;q=0.9', true],
  // A malformed weight is not a weight.
  ['text/markdown;q=2, text/html;q=0.5', false],
  ['text/markdown;q=abc, text/html;q=0.5', false],
  ['garbage', false],
];

describe('prefersMarkdown (D21)', () => {
  it.each(TABLE)('Accept %j → Markdown %s', (accept, markdown) => {
    expect(prefersMarkdown(accept)).toBe(markdown);
  });
});

/** A GET with exactly the headers given: fetch would add `Accept: *\/*` when none is set. */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('negotiation over HTTP (D21)', () => {
  let s: Awaited<ReturnType<typeof serveBuilt>>;
  let html: string;
  let markdown: string;
  beforeAll(async () => {
    s = await serveBuilt();
    html = await (await fetch(`${s.url}/projects`, { headers: { accept: 'text/html' } })).text();
    markdown = await (await fetch(`${s.url}/projects.md`)).text();
  });
  afterAll(() => s?.close());

  it.each(TABLE)('GET /projects with Accept %j → Markdown %s', async (accept, wantMarkdown) => {
    // A query string takes the function's path instead of the CDN's exact-file path; both must agree.
    for (const target of ['/projects', '/projects?utm_source=test']) {
      const res = await get(s.url + target, accept === undefined ? {} : { accept });
      expect(res.status, target).toBe(200);
      expect(res.headers['content-type'], target).toBe(wantMarkdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8');
      expect(res.headers.vary, target).toBe('Accept, Accept-Encoding');
      expect(res.body, target).toBe(wantMarkdown ? markdown : html);
    }
  });

  it('names the page canonical in the Link header of its twin, at P.md and negotiated at P, and the twin in the page’s', async () => {
    const canonical = html.match(/<link rel="canonical" href="([^"]+)">/)![1]!;
    expect(canonical).toMatch(/^https:\/\/.+\/projects$/);
    for (const [target, accept] of [
      ['/projects.md', undefined],
      ['/projects', 'text/markdown'],
    ] as const) {
      const res = await get(s.url + target, accept === undefined ? {} : { accept });
      expect(res.headers.link, target).toBe(`<${canonical}>; rel="canonical"`);
    }
    expect((await get(`${s.url}/projects`, { accept: 'text/html' })).headers.link).toBe(
      '</projects.md>; rel="alternate"; type="text/markdown"',
    );
  });
});
