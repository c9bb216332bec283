// Request fuzzing (D13–D17, D41): random methods, paths, queries,
// headers and bodies against a real `folio serve` on 127.0.0.1. No 5xx,
// every failure under /api/ and /mcp is the JSON envelope, nothing outside
// dist/ is ever served, and the server keeps answering. Set
// FOLIO_FUZZ_BASE_URL to run the same fuzzer against another runtime
// (e.g. `wrangler pages dev`); FOLIO_FUZZ_SEED replays a failing seed.
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../build/serve.js';
import { fuzzBudget, fuzzRuns } from './helpers/fuzz.js';
import { rawRequest, type RawRequest } from './helpers/raw-http.js';
import { fuzzRequests, violations } from './helpers/request-fuzz.js';
import { buildInto } from './helpers/site.js';

const CANARY = `folio-canary-${randomBytes(8).toString('hex')}`;
/** The first line of /etc/passwd on any Linux: proves no absolute-path escape either. */
const PASSWD = 'root:x:0:0:';

let root: string;
let base: string;
let close: () => Promise<void>;
let slugs: string[] = [];

beforeAll(async () => {
  const built = await buildInto();
  root = join(built.out, '..');
  // Next to dist/, where a traversal would land first, and one level up.
  await writeFile(join(root, 'canary.txt'), CANARY);
  await writeFile(join(root, 'canary.json'), JSON.stringify({ canary: CANARY }));
  const server = await startServer({ dir: built.out, port: 0, host: '127.0.0.1' });
  base = server.url;
  close = server.close;
  slugs = [...built.site.posts.map((p) => p.slug), ...built.site.projects.map((p) => p.id), ...built.site.tags.map((t) => t.tag)];
});

afterAll(async () => {
  await close?.();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('path traversal (D39: nothing outside dist/)', () => {
  const targets = [
    '/../canary.txt',
    '/..%2fcanary.txt',
    '/%2e%2e/canary.txt',
    '/%2e%2e%2fcanary.txt',
    '/%2E%2E%2Fcanary.txt',
    '/.%2e/canary.txt',
    '/..%5ccanary.txt',
    '/..\\canary.txt',
    '\\..\\canary.txt',
    '/%252e%252e%252fcanary.txt',
    '/%c0%ae%c0%ae/canary.txt',
    '/..%00/canary.txt',
    '/canary.txt%00.json',
    '/api/v1/../../canary.txt',
    '/api/v1/%2e%2e/%2e%2e/canary.txt',
    '/api/v1/posts/..%2f..%2f..%2f..%2fcanary.txt',
    '/api/v1/posts/..%2f..%2f..%2f..%2fcanary',
    '/api/v1/posts/%2e%2e%2f%2e%2e%2f%2e%2e%2fcanary.json',
    '/api/v1/posts?tag=..%2f..%2f..%2fcanary',
    '/blog/..%2f..%2fcanary.txt',
    '/_folio/../../canary.txt',
    '/_folio/..%2f..%2fcanary.json',
    '//canary.txt',
    '/../../../../../../etc/passwd',
    '/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/%2fetc%2fpasswd',
    '/api/v1/posts/%2fetc%2fpasswd',
    'http://127.0.0.1/../canary.txt',
  ];
  it.each(targets)('%s is never answered with a file outside dist/', async (target) => {
    const agent = new Agent({ keepAlive: false });
    for (const method of ['GET', 'HEAD'] as const) {
      for (const accept of [undefined, 'text/markdown']) {
        const req: RawRequest = { method, target, headers: accept ? { accept } : {}, body: null };
        const res = await rawRequest(base, req, agent);
        expect(violations(req, res, { canaries: [CANARY, PASSWD] }), `${method} ${target}`).toEqual([]);
        // A path that climbs out is never a page; a query value is only data.
        if (!target.includes('?')) expect(res.status, `${method} ${target}`).not.toBe(200);
      }
    }
  });
});

describe('inputs the fuzzer found (regressions)', () => {
  // Range on a precomputed file: serve-handler answered an unsatisfiable one
  // with 416 and the whole file as its body (an API failure outside the
  // envelope) and a satisfiable one with 206, where the functions answer 200.
  it.each(['/api/v1/posts', '/blog/sd-notify-readiness', '/llms.txt', '/blog/sd-notify-readiness?', '/blog.md'])(
    '%s ignores Range, as the functions do',
    async (target) => {
      const whole = await rawRequest(base, { method: 'GET', target, headers: {}, body: null });
      expect(whole.status).toBe(200);
      for (const range of ['bytes=5-1', 'bytes=999999999-', 'bytes=0-10', 'bytes=0-0,1-1', 'bytes=-1']) {
        const res = await rawRequest(base, { method: 'GET', target, headers: { range, 'if-range': '"x"' }, body: null });
        expect(res.status, range).toBe(200);
        expect(res.headers['content-range'], range).toBeUndefined();
        expect(res.body.equals(whole.body), range).toBe(true);
      }
    },
  );
});

describe('random requests against folio serve', () => {
  it('never answer 5xx, always answer failures with the envelope, never leave dist/', { timeout: fuzzBudget(60_000) }, async () => {
    const { details, figures, report } = await fuzzRequests({
      name: 'requests: folio serve',
      base,
      label: 'folio serve on 127.0.0.1',
      numRuns: fuzzRuns(400),
      timeLimitMs: fuzzBudget(12_000),
      canaries: [CANARY, PASSWD],
      slugs,
    });
    expect(details.failed, report).toBe(false);
    expect(figures.failures, report).toBe(0);
    // Bounded in count and time, but it must have really run.
    expect(figures.inputs).toBeGreaterThan(50);
  });
});

const external = process.env.FOLIO_FUZZ_BASE_URL;
describe.runIf(external)(`random requests against ${external}`, () => {
  it('hold to the same rules on another runtime', { timeout: fuzzBudget(120_000) }, async () => {
    const { details, figures, report } = await fuzzRequests({
      name: `requests: ${external}`,
      base: external!,
      numRuns: fuzzRuns(400),
      timeLimitMs: fuzzBudget(30_000),
      canaries: [PASSWD],
      slugs,
    });
    expect(details.failed, report).toBe(false);
    expect(figures.failures, report).toBe(0);
  });
});
