// The request fuzzer of test/fuzz-requests.test.ts on Cloudflare's own
// runtime (`wrangler pages dev` over a built dist with the repository's
// functions/, offline), with canaries next to dist/ (D13–D17).
// Plain files on Pages answer other methods with Pages' own 405 (see
// docs/hosts.md), so there the envelope is required under /api/ and at /mcp.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSample, wranglerTarget, type Target } from './conformance/targets.js';
import { fuzzBudget, fuzzRuns } from './helpers/fuzz.js';
import type { RawRequest } from './helpers/raw-http.js';
import { fuzzRequests } from './helpers/request-fuzz.js';

const CANARY = `folio-canary-${randomBytes(8).toString('hex')}`;

let target: Target;
let sample: Awaited<ReturnType<typeof buildSample>>;

beforeAll(async () => {
  sample = await buildSample();
  await writeFile(join(sample.dist, '..', 'canary.txt'), CANARY);
  await writeFile(join(sample.dist, '..', 'canary.json'), JSON.stringify({ canary: CANARY }));
  target = await wranglerTarget(sample.dist);
}, 180_000);

afterAll(async () => {
  await target?.close();
  await sample?.remove();
});

/**
 * Requests the local Pages runtime itself mishandles before any function
 * runs (seen with wrangler 4.40.2): TRACE, a forbidden method in Fetch, hangs
 * the asset server; LINK and M-SEARCH get workerd's own 501; a target that is
 * not origin-form ("*", "\\x", "http://host/x") gets wrangler's own 500; a raw
 * "#" (a fragment, which no client sends) is parsed unpredictably.
 */
function wranglerCannotTake(req: RawRequest): string | null {
  if (req.method === 'TRACE') return 'TRACE (forbidden in Fetch; hangs the wrangler asset server)';
  if (req.method === 'LINK' || req.method === 'M-SEARCH') return 'an extension method workerd does not implement (its own 501)';
  if (!req.target.startsWith('/')) return 'a target not in origin-form (wrangler answers its own 500)';
  if (req.target.includes('#')) return 'a raw # in the target (not HTTP: clients never send a fragment; wrangler resolves what follows)';
  return null;
}

describe('paths with an empty segment on Cloudflare Pages (D13, D15, D17)', () => {
  // Pages' route files match no path with an empty segment, so a function
  // there would never see it: GET would get the HTML 404.html and POST Pages'
  // bare 405, without the envelope or CORS. The middleware answers it. The fuzzer below sends more such paths, raw
  // backslashes among them (a slash to the runtime's URL parser).
  it('GET and POST /api/v1//posts answer the JSON envelope', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${target.url}/api/v1//posts`, { method });
      expect(res.status, method).toBe(method === 'GET' ? 404 : 405);
      expect(res.headers.get('content-type'), method).toBe('application/json; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin'), method).toBe('*');
    }
  });
});

describe('random requests against wrangler pages dev', () => {
  it('never answer 5xx, answer API and MCP failures with the envelope, never leave dist/', { timeout: fuzzBudget(120_000) }, async () => {
    const { details, figures, report } = await fuzzRequests({
      name: 'requests: wrangler pages dev',
      base: target.url,
      label: 'wrangler pages dev on 127.0.0.1',
      numRuns: fuzzRuns(250),
      timeLimitMs: fuzzBudget(25_000),
      canaries: [CANARY, 'root:x:0:0:'],
      envelopeEverywhere: false,
      slugs: ['retiring-pid-files', 'pidwatch', 'email', 'ssh'],
      exclude: wranglerCannotTake,
    });
    expect(details.failed, report).toBe(false);
    expect(figures.failures, report).toBe(0);
    expect(figures.inputs).toBeGreaterThan(30);
  });
});
