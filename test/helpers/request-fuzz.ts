// Request fuzzing against any base URL: `folio serve` here, the Cloudflare
// runtime (`wrangler pages dev`) or a deployment, with random requests from
// request-arb.ts. The checks are the spec's (D13–D17, D41): no 5xx, every
// failure under /api/ and /mcp is the JSON envelope, nothing outside dist/ is
// ever served, and the server keeps answering.
import { Agent } from 'node:http';
import fc from 'fast-check';
import { failureReport, fuzzSeed, recordFigures, type FuzzFigures } from './fuzz.js';
import { rawRequest, type RawRequest, type RawResponse } from './raw-http.js';
import { requestArb } from './request-arb.js';

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
