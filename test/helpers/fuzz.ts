// Request fuzzing against any base URL: `folio serve` here, the
// Cloudflare runtime (`wrangler pages dev`) or a deployment. The generator
// leans on what breaks servers: traversal spellings, encodings, NUL, very
// long and non-ASCII paths, prototype keys and huge numbers in queries,
// arbitrary methods and bodies. The checks are the spec's (D13–D17, D41):
// no 5xx, every failure under /api/ and /mcp is the JSON envelope, nothing
// outside dist/ is ever served, and the server keeps answering.
import { appendFileSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';

export interface RawRequest {
  method: string;
  /** The request target exactly as sent: not normalised, not re-encoded. */
  target: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request over a keep-alive agent, the target sent byte for byte. */
export function rawRequest(base: string, req: RawRequest, agent?: Agent, timeoutMs = 10_000): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body) headers['content-length'] = String(req.body.byteLength);
    const r = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.target,
        headers,
        agent,
        timeout: timeoutMs,
        insecureHTTPParser: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(req.body ?? undefined);
  });
}

// ---------------------------------------------------------------- generators

const METHODS = [
  'GET',
  'GET',
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'MKCOL',
  'LOCK',
  'COPY',
  'MOVE',
  'SEARCH',
  'PURGE',
  'REPORT',
  'QUERY',
  'LINK',
  'M-SEARCH',
];

const KNOWN_SEGMENTS = [
  'api',
  'v1',
  'v2',
  'v0',
  'posts',
  'projects',
  'services',
  'profile',
  'search',
  'blog',
  'tags',
  'about',
  'developers',
  'mcp',
  'server-card',
  '.well-known',
  'llms.txt',
  'openapi.json',
  'robots.txt',
  'index.md',
  '_folio',
  'site.json',
  'manifest.json',
  'search-index.json',
  'index.json',
  'index.html',
  '404.html',
  'dist',
  'canary.txt',
  'etc',
  'passwd',
];

/** Ways to say "go up a directory" or "another separator" that some server has decoded at the wrong time. */
const TRAVERSAL = [
  '..',
  '.',
  '...',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%2e',
  '..%2f',
  '..%2F',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '\\',
  '..\\',
  '..%5c',
  '%00',
  '%2500',
  '%252e%252e%252f',
  '%252e%252e',
  '%c0%ae%c0%ae',
  '%c0%af',
  '%e0%80%ae',
  '%uff0e%uff0e',
  '..;',
  ';',
  '~',
  '%',
  '%zz',
  '%2',
  '..%00',
  '..%2f..%2f..%2fcanary.txt',
  '..%2F..%2Fcanary.txt',
  '%2e%2e%2fcanary.txt',
  '..%5c..%5ccanary.txt',
  '....//',
  '.%00.',
  'canary.txt%00.json',
];

const printable = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 24 });
/** Raw bytes 0x80–0xff in the target: not valid UTF-8, sent as they are. */
const latin1 = fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 6 });
const unicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map((s) => encodeURIComponent(s));
const long = fc
  .tuple(fc.constantFrom('a', '../', '%2e%2e%2f', '%', 'é', '/'), fc.integer({ min: 200, max: 5000 }))
  .map(([unit, n]) => (unit === 'é' ? encodeURIComponent('é') : unit).repeat(Math.ceil(n / unit.length)).slice(0, n));

function segment(slugs: readonly string[]) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...KNOWN_SEGMENTS, ...(slugs.length ? slugs : ['x'])) },
    { weight: 4, arbitrary: fc.constantFrom(...TRAVERSAL) },
    { weight: 2, arbitrary: printable },
    { weight: 1, arbitrary: latin1 },
    { weight: 2, arbitrary: unicode },
    { weight: 1, arbitrary: long },
    { weight: 1, arbitrary: fc.constant('') },
  );
}

const PREFIXES = [
  '',
  '',
  '/api/v1',
  '/api/v1',
  '/api/v1/posts',
  '/api/v1/projects',
  '/api/v1/search',
  '/blog',
  '/mcp',
  '/_folio',
  '/.well-known',
];

function pathArb(slugs: readonly string[]) {
  return fc
    .tuple(fc.constantFrom(...PREFIXES), fc.array(segment(slugs), { maxLength: 6 }), fc.boolean(), fc.integer({ min: 0, max: 20 }))
    .map(([prefix, parts, trailing, form]) => {
      const path = `${prefix}/${parts.join('/')}${trailing ? '/' : ''}`.replace(/^\/\/+(?=.)/, form < 2 ? '//' : '/');
      // A few targets in forms other than origin-form.
      if (form === 20) return '*';
      if (form === 19) return `http://127.0.0.1${path}`;
      if (form === 18) return `http://evil.example${path}`;
      if (form === 17) return path.replace(/^\//, '\\');
      return path;
    });
}

const QUERY_KEYS = [
  'limit',
  'offset',
  'tag',
  'status',
  'q',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__proto__[x]',
  'limit[]',
  'q[]',
  '',
  '=',
  '%00',
  'LIMIT',
  'x',
];
const QUERY_VALUES = [
  '',
  '0',
  '1',
  '-1',
  '20',
  '100',
  '101',
  '1e3',
  '1.5',
  '0x10',
  '0b1',
  ' 1',
  '1 ',
  '+1',
  '%2B1',
  '00000000000000000001',
  '9007199254740993',
  '99999999999999999999999999999999',
  '1e309',
  'NaN',
  'Infinity',
  '-0',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'live',
  'sunset',
  'delivered',
  'LIVE',
  'email',
  'EMAIL',
  'ssh',
  'deliverabilty',
  '%00',
  '%',
  '%zz',
  '%ff%fe',
  '+',
  '%20%20',
  '..%2f..%2fcanary.txt',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}',
  '{{7*7}}',
];

function queryArb() {
  const value = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...QUERY_VALUES) },
    { weight: 2, arbitrary: unicode },
    { weight: 2, arbitrary: printable.map((s) => s.replace(/[#]/g, '')) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 150, max: 3000 }).map((n) => 'q'.repeat(n)) },
  );
  const key = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) },
    { weight: 1, arbitrary: printable.map((s) => s.replace(/[#&=]/g, '')) },
  );
  const pair = fc.tuple(key, value, fc.boolean()).map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constant('?') },
    {
      weight: 6,
      arbitrary: fc.array(pair, { minLength: 1, maxLength: 6 }).chain((pairs) =>
        // Repeated keys: duplicate some pairs, in place or at the end.
        fc.subarray(pairs).map((dups) => `?${[...pairs, ...dups].join('&')}`),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('?&&&', '?=', '?&=&', '?;', '?limit=1;offset=2', '?%', '?#frag') },
  );
}

const header = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });

function headersArb() {
  return fc.record(
    {
      accept: fc.oneof(
        fc.constantFrom(
          'text/markdown',
          'text/html',
          'text/markdown;q=0.9, text/html;q=0.1',
          'text/html;q=0, text/markdown',
          '*/*',
          '*/*;q=NaN',
          'text/markdown;q=2',
          'application/json',
          ';;;,,,',
          'text/*;q=0.5, text/markdown;q=0.5',
        ),
        header,
      ),
      'if-none-match': fc.oneof(fc.constantFrom('*', '""', 'W/"x"', '"a", "b"'), header),
      'content-type': fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json-rpc',
          'APPLICATION/JSON',
          'application/jsonx',
        ),
        header,
      ),
      'mcp-protocol-version': fc.oneof(fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', '1999-01-01', ''), header),
      'access-control-request-method': fc.constantFrom('GET', 'POST', 'DELETE'),
      'access-control-request-headers': header,
      origin: fc.constantFrom('https://evil.example', 'null', 'http://127.0.0.1'),
      range: fc.constantFrom('bytes=0-10', 'bytes=-1', 'bytes=999999999-', 'bytes=5-1', 'bytes=0-0,1-1,2-2'),
    },
    { requiredKeys: [] },
  );
}

function bodyArb() {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2048 }) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }).map((s) => new TextEncoder().encode(s)) },
    {
      weight: 2,
      arbitrary: fc
        .record(
          {
            jsonrpc: fc.constantFrom('2.0', '1.0'),
            id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
            method: fc.constantFrom('tools/list', 'tools/call', 'initialize', 'resources/read', 'ping', 'nope'),
          },
          { requiredKeys: [] },
        )
        .map((o) => new TextEncoder().encode(JSON.stringify(o))),
    },
  );
}

/** Spaces and controls cannot be sent raw in a request line; a client percent-encodes them. */
function sendable(target: string): string {
  return target.replace(/[\u0000-\u0020\u007f]|[^\u0000-\u00ff]/g, (c) => encodeURIComponent(c));
}

export function requestArb(slugs: readonly string[] = []): fc.Arbitrary<RawRequest> {
  return fc
    .record({ method: fc.constantFrom(...METHODS), path: pathArb(slugs), query: queryArb(), headers: headersArb(), body: bodyArb() })
    .map(({ method, path, query, headers, body }) => ({
      method,
      target: path === '*' ? '*' : sendable(`${path}${query}`),
      headers,
      body: method === 'GET' || method === 'HEAD' ? null : body,
    }));
}

// ---------------------------------------------------------------- checks

export interface CheckContext {
  /** Strings that live outside dist/: if one appears in a reply, traversal happened. */
  canaries: readonly string[];
  /**
   * Whether every failure outside the 404 page is the envelope (folio serve:
   * respond() answers 405 everywhere), or only those under /api/ and at /mcp
   * (a CDN answers other methods on its plain files itself). Default true.
   */
  envelopeEverywhere?: boolean;
}

const ERROR_CODES = new Set([
  'not_found',
  'invalid_request',
  'method_not_allowed',
  'unsupported_media_type',
  'payload_too_large',
  'internal_error',
  'gone',
]);
const STACK = /\n\s+at .+[(:]\d+:\d+\)?|at (file|node):\/\//;

function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/** Under /api/ or at /mcp both as sent and as a WHATWG URL parser (a CDN) would normalise it. */
function isEnvelopeAddress(target: string): boolean {
  const raw = pathOf(target);
  let normal = raw;
  try {
    normal = new URL(raw, 'http://h').pathname;
  } catch {
    // unparsable: the raw form decides
  }
  const api = (p: string) => p === '/api' || p.startsWith('/api/') || p === '/mcp' || p === '/mcp/';
  return api(raw) && api(normal);
}

/**
 * The JSON-RPC errors /mcp (and /mcp/, the same endpoint) answers on an HTTP
 * status instead of the envelope (D36): input it cannot read or accept and
 * the 2026-07-28 revision's refusals on 400, that revision's unknown method
 * on 404.
 */
export const MCP_RPC_ERRORS: Readonly<Record<number, readonly number[]>> = { 400: [-32700, -32600, -32602, -32020, -32022], 404: [-32601] };

/** A POST to /mcp answered with a JSON-RPC error its status may carry. */
function mcpRpcError(req: RawRequest, res: RawResponse): boolean {
  const path = pathOf(req.target);
  if (req.method !== 'POST' || (path !== '/mcp' && path !== '/mcp/')) return false;
  try {
    const body = JSON.parse(res.body.toString('utf8')) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
    return (
      body.jsonrpc === '2.0' &&
      typeof body.error?.message === 'string' &&
      (MCP_RPC_ERRORS[res.status] ?? []).includes(body.error.code as number)
    );
  } catch {
    return false;
  }
}

/** Every way the response breaks the spec, as readable lines (empty when it is fine). */
export function violations(req: RawRequest, res: RawResponse, ctx: CheckContext): string[] {
  const out: string[] = [];
  const type = String(res.headers['content-type'] ?? '');
  const text = res.body.toString('latin1');
  if (res.status >= 500) out.push(`answered ${res.status}`);
  for (const canary of ctx.canaries) {
    if (text.includes(canary) || JSON.stringify(res.headers).includes(canary))
      out.push(`served a file from outside dist/ (canary "${canary}")`);
  }
  if (STACK.test(text)) out.push('the body holds a stack trace');
  if (res.status >= 300 && res.status < 400 && res.status !== 304) {
    const location = String(res.headers.location ?? '');
    if (!location.startsWith('/') || location.startsWith('//') || location.startsWith('/\\'))
      out.push(`redirects off-site or nowhere: Location "${location}"`);
  }
  if (res.status >= 400 && !refusedByParser(req, res)) {
    const envelopeAddress = isEnvelopeAddress(req.target);
    const page = res.status === 404 && /^text\/(html|markdown)/.test(type) && !envelopeAddress;
    if (!page && !mcpRpcError(req, res) && (envelopeAddress || (ctx.envelopeEverywhere ?? true)))
      out.push(...envelopeProblems(req, res, type));
  }
  return out;
}

/** Node's default limit on the request line and headers together (Cloudflare's URL limit is the same 16 KiB). */
const MAX_HEAD_BYTES = 16 * 1024;

/**
 * A request that is not valid HTTP is refused by the server's HTTP parser
 * before any folio code runs, with a bare 400/414/431, as a CDN's edge would:
 * a target that is not origin-form, absolute-form or "*", or holds bytes
 * outside printable ASCII (RFC 9112 §3.2, RFC 3986 §2), or a head larger
 * than the server accepts.
 */
export function invalidHttp(req: RawRequest): boolean {
  const validForm = req.target.startsWith('/') || /^https?:\/\//.test(req.target) || req.target === '*';
  const ascii = !/[^\x21-\x7e]/.test(req.target);
  const head = req.target.length + Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 64);
  return !validForm || !ascii || head > MAX_HEAD_BYTES - 1024;
}

/** The parser's bare refusal of an invalid request (the socket may also just close; see fuzzRequests). */
export function refusedByParser(req: RawRequest, res: RawResponse): boolean {
  return invalidHttp(req) && [400, 414, 431].includes(res.status) && res.body.length === 0 && !res.headers['content-type'];
}

function envelopeProblems(req: RawRequest, res: RawResponse, type: string): string[] {
  const out: string[] = [];
  if (!type.startsWith('application/json'))
    out.push(`a ${res.status} failure answered ${type || 'no content type'}, not the JSON envelope`);
  if (res.headers['access-control-allow-origin'] !== '*') out.push(`a ${res.status} failure lacks Access-Control-Allow-Origin: * (D17)`);
  if (req.method === 'HEAD') return out;
  let body: { error?: Record<string, unknown> } | undefined;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    return [...out, `a ${res.status} failure whose body is not JSON: ${res.body.toString('utf8').slice(0, 80)}`];
  }
  const e = body?.error;
  if (!e || typeof e !== 'object') return [...out, `a ${res.status} failure without an "error" object`];
  if (!ERROR_CODES.has(String(e.code))) out.push(`error.code "${String(e.code)}" is not a documented code`);
  if (e.status !== res.status) out.push(`error.status ${String(e.status)} differs from the HTTP status ${res.status}`);
  for (const key of ['message', 'hint', 'documentation_url', 'openapi_url'])
    if (typeof e[key] !== 'string' || !e[key]) out.push(`error.${key} is missing`);
  if (typeof e.documentation_url === 'string' && !e.documentation_url.endsWith('/developers'))
    out.push('error.documentation_url is not the developer page');
  if (typeof e.openapi_url === 'string' && !e.openapi_url.endsWith('/openapi.json'))
    out.push('error.openapi_url is not the OpenAPI description');
  return out;
}

// ---------------------------------------------------------------- the run

export interface FuzzFigures {
  name: string;
  target: string;
  /** Inputs fast-check generated and ran (shrinking included). */
  inputs: number;
  /** HTTP requests sent, liveness probes included. */
  requests: number;
  /** Inputs that were not valid HTTP and were refused by the HTTP parser before folio saw them. */
  refused?: number;
  /** Inputs not sent, by the reason the runtime cannot take them. */
  excluded?: Record<string, number>;
  failures: number;
  seed: number;
  ms: number;
  note?: string;
}

/** Scales a test's run count: 1 in npm test, more under `npm run reliability`. */
export function fuzzRuns(base: number): number {
  const scale = Number(process.env.FOLIO_FUZZ_SCALE ?? '1');
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

/** The time budget of one fuzz property, scaled the same way. */
export function fuzzBudget(ms: number): number {
  const scale = Number(process.env.FOLIO_FUZZ_SCALE ?? '1');
  return Math.round(ms * (Number.isFinite(scale) && scale > 1 ? scale : 1));
}

/** What fast-check found, with the error it threw: the message of a failed run's assertion, or "" when it passed. */
export function failureReport<Ts>(details: fc.RunDetails<Ts>): string {
  if (!details.failed) return '';
  return `${fc.defaultReportMessage(details) ?? 'failed'}\n${String((details.errorInstance as Error | undefined)?.message ?? '')}`;
}

/** The seed of a run: FOLIO_FUZZ_SEED replays a failure, otherwise a fresh one. */
export function fuzzSeed(): number {
  const given = process.env.FOLIO_FUZZ_SEED;
  return given ? Number(given) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

/** Appends a run's figures for scripts/reliability.js (FOLIO_FUZZ_REPORT names the file). */
export function recordFigures(figures: FuzzFigures): void {
  const file = process.env.FOLIO_FUZZ_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify(figures)}\n`);
}

export interface RequestFuzzOptions {
  name: string;
  base: string;
  /** What the figures call the target (default: the base URL). */
  label?: string;
  numRuns: number;
  timeLimitMs: number;
  seed?: number;
  canaries?: readonly string[];
  envelopeEverywhere?: boolean;
  /** Real slugs and ids, so that paths reach the handlers behind them. */
  slugs?: readonly string[];
  /** A GET target that must answer 200 between inputs, to prove the server still answers. */
  probe?: string;
  /** Inputs this runtime cannot take for a known reason outside folio: the reason, or null to send it. */
  exclude?: (req: RawRequest) => string | null;
  note?: string;
}

export async function fuzzRequests(
  options: RequestFuzzOptions,
): Promise<{ details: fc.RunDetails<[RawRequest]>; figures: FuzzFigures; report: string }> {
  const seed = options.seed ?? fuzzSeed();
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const probe = options.probe ?? '/api/v1';
  const ctx: CheckContext = { canaries: options.canaries ?? [], envelopeEverywhere: options.envelopeEverywhere };
  let requests = 0;
  let failures = 0;
  let inputs = 0;
  let refused = 0;
  const excluded: Record<string, number> = {};
  const started = performance.now();
  const alive = async () => {
    requests++;
    const res = await rawRequest(options.base, { method: 'GET', target: probe, headers: {}, body: null }, agent);
    return res.status === 200;
  };
  const property = fc.asyncProperty(requestArb(options.slugs), async (req) => {
    inputs++;
    const reason = options.exclude?.(req);
    if (reason) {
      excluded[reason] = (excluded[reason] ?? 0) + 1;
      return;
    }
    let res: RawResponse;
    try {
      requests++;
      res = await rawRequest(options.base, req, agent);
    } catch (error) {
      // An invalid request may be refused by closing the connection while
      // its body is still being sent; the server must still answer the next.
      if (invalidHttp(req) && (await alive().catch(() => false))) {
        refused++;
        return;
      }
      failures++;
      throw new Error(`no answer to ${req.method} ${req.target.slice(0, 200)}: ${(error as Error).message}`, { cause: error });
    }
    if (refusedByParser(req, res)) refused++;
    const problems = violations(req, res, ctx);
    if (inputs % 25 === 0 && !(await alive())) problems.push(`the server stopped answering GET ${probe} with 200`);
    if (problems.length) {
      failures++;
      throw new Error(`${req.method} ${req.target.slice(0, 300)} → ${res.status}: ${problems.join('; ')}`);
    }
  });
  const details = await fc.check(property, {
    numRuns: options.numRuns,
    seed,
    interruptAfterTimeLimit: options.timeLimitMs,
    markInterruptAsFailure: false,
  });
  const finalAlive = await alive().catch(() => false);
  agent.destroy();
  const figures: FuzzFigures = {
    name: options.name,
    target: options.label ?? options.base,
    inputs,
    requests,
    refused,
    excluded,
    failures: failures + (finalAlive ? 0 : 1),
    seed,
    ms: Math.round(performance.now() - started),
    note: options.note,
  };
  recordFigures(figures);
  const report = details.failed ? failureReport(details) : finalAlive ? '' : `the server stopped answering GET ${probe}`;
  return { details, figures, report };
}
