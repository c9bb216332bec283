// The Netlify and Vercel functions (D38): each reads dist/ over HTTP from a
// CDN that applies the host's own rules (replayed as helpers/hosts.ts
// does), and must answer as folio serve does, whichever way the host's
// rewrite passed the path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import serveHandler from 'serve-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETLIFY_FILES, NETLIFY_FUNCTION, netlifyRedirects } from '../build/emit/hosts/netlify.js';
import { INTERNAL_READ, VERCEL_FUNCTION, vercelRoutes } from '../build/emit/hosts/vercel.js';
import { startServer } from '../build/serve.js';
import { originHandler } from '../functions/_shared/origin.js';
import { hostSample, netlifyRoute, vercelRoute } from './helpers/hosts.js';

const sample = hostSample();

describe('the Netlify and Vercel functions (D38)', () => {
  let cdns: Server[] = [];
  let netlifyOrigin: string;
  let vercelOrigin: string;
  let serve: Awaited<ReturnType<typeof startServer>>;

  /**
   * The CDN a function reads dist/ from, with the host's rules applied to
   * those reads too, as the host does: a read the rules send to the function
   * is refused there (the function answers its own reads 404), else the file
   * the rules name is served.
   */
  async function hostCdn(route: (target: string, headers: Record<string, string>) => string, isFunction: (dest: string) => boolean) {
    const cdn = createServer((req, res) => {
      const dest = route(req.url!, req.headers as Record<string, string>);
      if (isFunction(dest)) {
        res.writeHead(404).end();
        return;
      }
      req.url = dest;
      void serveHandler(req, res, { public: sample.dist, cleanUrls: false, directoryListing: false });
    });
    await new Promise<void>((ok) => cdn.listen(0, '127.0.0.1', ok));
    cdns.push(cdn);
    return `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    const rules = netlifyRedirects(sample.plan);
    const routes = vercelRoutes(sample.plan);
    // Every file of dist/ is there for the host, the function's own (_folio/edge/) included.
    const fileAt = (path: string) => statSync(join(sample.dist, decodeURIComponent(path)), { throwIfNoEntry: false })?.isFile() === true;
    netlifyOrigin = await hostCdn(
      (t) => netlifyRoute(rules, t, sample.manifest, fileAt),
      (dest) => dest.startsWith(`${NETLIFY_FUNCTION}/`),
    );
    vercelOrigin = await hostCdn(
      (t, headers) => vercelRoute(routes, t, sample.manifest, headers, fileAt),
      (dest) => dest.startsWith(VERCEL_FUNCTION),
    );
    serve = await startServer({ dir: sample.dist, port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await serve?.close();
    for (const cdn of cdns) await new Promise((ok) => cdn.close(ok));
    cdns = [];
  });

  const cases: [string, string, RequestInit?][] = [
    ['/api/v1/posts?limit=3&offset=2', 'computed paging'],
    ['/api/v1/posts?tag=ci', 'a precomputed query'],
    ['/blog', 'a page', { headers: { accept: 'text/html' } }],
    ['/blog', 'a negotiated twin', { headers: { accept: 'text/markdown' } }],
    ['/no-such-page', 'the 404 page'],
    ['/api/v1/posts', 'a 405', { method: 'POST', body: '{}' }],
    // Files under rules that send their addresses to the function, which reads them past those rules.
    ['/blog/short-lived-ssh-certificates', 'a post page', { headers: { accept: 'text/html' } }],
    ['/blog/short-lived-ssh-certificates', 'a post twin by Accept', { headers: { accept: 'text/markdown' } }],
    ['/blog/short-lived-ssh-certificates.md', 'a post twin'],
    ['/blog/tags/email.md', 'a tag twin'],
    ['/projects/bouncedesk', 'a project page'],
  ];

  it("answer like folio serve, reading dist/ over HTTP through the host's own rules, whichever way the rewrite passed the path", async () => {
    // As functions/_netlify/folio.ts and functions/_vercel/folio.ts make them.
    const netlifyFn = originHandler({ prefix: NETLIFY_FUNCTION, files: NETLIFY_FILES });
    const vercelFn = originHandler({ param: '__folio_path' });
    expect(await readFile('functions/_netlify/folio.ts', 'utf8')).toContain(
      `originHandler({ prefix: '${NETLIFY_FUNCTION}', files: '${NETLIFY_FILES}' })`,
    );
    for (const [target, label, init] of cases) {
      const expected = await fetch(serve.url + target, init);
      const body = await expected.text();
      const [path, query = ''] = target.split('?');
      const viaNetlify = await netlifyFn(new Request(`${netlifyOrigin}${NETLIFY_FUNCTION}${target}`, init));
      const viaVercel = await vercelFn(
        new Request(`${vercelOrigin}${VERCEL_FUNCTION}?__folio_path=${path}${query ? `&${query}` : ''}`, init),
      );
      const asIs = await netlifyFn(new Request(netlifyOrigin + target, init));
      for (const [how, res] of [
        ['Netlify prefix', viaNetlify],
        ['Vercel parameter', viaVercel],
        ['original URL', asIs],
      ] as const) {
        expect(res.status, `${label} via ${how}`).toBe(expected.status);
        expect(await res.text(), `${label} via ${how}`).toBe(body);
        for (const name of ['content-type', 'cache-control', 'vary', 'link', 'allow', 'etag'])
          expect(res.headers.get(name), `${label} via ${how}: ${name}`).toBe(expected.headers.get(name));
      }
    }
  });

  it('never answers their own file reads, so a missing file cannot loop back into them', async () => {
    const res = await originHandler({ prefix: NETLIFY_FUNCTION })(
      new Request(`${netlifyOrigin}/blog.html`, { headers: { [INTERNAL_READ]: '1' } }),
    );
    expect(res.status).toBe(404);
    // The mark the function sends is the one vercel.json's routes let pass to the files.
    const { INTERNAL } = await import('../functions/_shared/origin.js');
    expect(INTERNAL).toBe(INTERNAL_READ);
  });
});
