// What the tests of POST /mcp share: the sample served on 127.0.0.1 with a
// canary file beside its output that must never be served, requests to it by
// fetch and byte for byte, the D18 headers and D17 envelope its answers carry,
// and the checks the fuzzer applies to any answer (D16, D17, D36, D41).
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { schemas } from '../../build/core/schemas.js';
import { ajv } from './ajv.js';
import { rawRequest, type RawRequest, type RawResponse } from './raw-http.js';
import { MCP_RPC_ERRORS } from './request-fuzz.js';
import { serveBuilt } from './site.js';

export const SITE = 'https://hannabrink.example';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const MODERN = '2026-07-28';
export const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
export const MiB = 1024 * 1024;
/** Written beside dist/ (canary.txt, canary.md): no answer may contain it. */
export const CANARY = `folio-canary-${randomBytes(8).toString('hex')}`;

/** An initialize request, as a client of an initialize-era revision (before 2026-07-28) opens with it. */
export function initializeMessage(protocolVersion: string, id: number | string = 1) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'folio-test', version: '1' } },
  };
}

/** The six tools of /mcp, in the order tools/list names them. */
export const TOOL_NAMES = [
  'site_get_profile',
  'site_list_posts',
  'site_get_post',
  'site_search_writing',
  'site_list_projects',
  'site_check_availability',
];

export interface McpServer {
  /** The server's origin, set once beforeAll has run. */
  readonly url: string;
  /** A fetch to /mcp, the body JSON-encoded unless it is a string. */
  mcp(body: unknown, headers?: Record<string, string>, method?: string): Promise<Response>;
  /** A 2026-07-28 request: the envelope in _meta, mirrored in the headers. */
  modern(method: string, params?: Record<string, unknown>, headers?: Record<string, string>): Promise<Response>;
  /** A request sent byte for byte over a keep-alive agent. */
  send(req: RawRequest): Promise<RawResponse>;
}

/** The sample served before the file's tests and removed after them. */
export function mcpServer(): McpServer {
  let s: Awaited<ReturnType<typeof serveBuilt>> | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  beforeAll(async () => {
    s = await serveBuilt();
    const root = join(s.out, '..');
    await writeFile(join(root, 'canary.txt'), CANARY);
    await writeFile(join(root, 'canary.md'), CANARY);
  });
  afterAll(async () => {
    agent.destroy();
    await s?.close();
  });
  const mcp = (body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
    fetch(`${s!.url}/mcp`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: method === 'GET' || method === 'HEAD' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    get url() {
      return s!.url;
    },
    mcp,
    modern(method, params = {}, headers = {}) {
      const name: Record<string, string> =
        method === 'tools/call'
          ? { 'mcp-name': String(params.name) }
          : method === 'resources/read'
            ? { 'mcp-name': String(params.uri) }
            : {};
      return mcp(
        { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...name, ...headers },
      );
    },
    send: (req) => rawRequest(s!.url, req, agent, 20_000),
  };
}

const validEnvelope = ajv.compile(schemas.ErrorEnvelope!);

/** D18 on every MCP response, errors and 202s included; and never a session (D36). */
export function expectMcpHeaders(res: Response) {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-expose-headers')).toMatch(/ETag/);
  expect(res.headers.get('x-api-version')).toBe('v1');
  expect(res.headers.get('x-api-deprecated')).toBe('false');
  expect(res.headers.get('link')).toBe(`<${SITE}/developers#versioning>; rel="deprecation"; type="text/html"`);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('mcp-session-id')).toBeNull();
}

/** The D17 envelope of an HTTP-layer failure. */
export async function expectEnvelope(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe(JSON_TYPE);
  expectMcpHeaders(res);
  const body = (await res.json()) as any;
  expect(validEnvelope(body), JSON.stringify(validEnvelope.errors)).toBe(true);
  expect(body.error).toMatchObject({ code, status, documentation_url: `${SITE}/developers`, openapi_url: `${SITE}/openapi.json` });
  return body.error as { message: string; hint: string };
}

/** A JSON-RPC answer. */
export async function rpc(res: Response, status = 200) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe(JSON_TYPE);
  expectMcpHeaders(res);
  const body = (await res.json()) as any;
  expect(body.jsonrpc).toBe('2.0');
  return body;
}

export const encode = (s: string) => new TextEncoder().encode(s);

/** A raw POST to /mcp. */
export function post(body: Uint8Array | string, headers: Record<string, string> = { 'content-type': 'application/json' }): RawRequest {
  return { method: 'POST', target: '/mcp', headers, body: typeof body === 'string' ? encode(body) : body };
}

/** The D17 envelope of a raw answer. */
export async function expectRawEnvelope(res: RawResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe(JSON_TYPE);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  const body = JSON.parse(res.body.toString('utf8'));
  expect(body.error).toMatchObject({ code, status, documentation_url: `${SITE}/developers`, openapi_url: `${SITE}/openapi.json` });
}

function rpcProblems(x: unknown): string[] {
  const r = x as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  const out: string[] = [];
  if (typeof r !== 'object' || r === null) return ['a JSON-RPC response that is not an object'];
  if (r.jsonrpc !== '2.0') out.push('jsonrpc is not "2.0"');
  if (!('id' in r) || !(r.id === null || typeof r.id === 'string' || typeof r.id === 'number'))
    out.push(`id ${JSON.stringify(r.id)?.slice(0, 40)} is not a string, number or null`);
  if ('result' in r === 'error' in r) out.push('neither result nor error (or both)');
  if (r.error) {
    if (!Number.isInteger(r.error.code) || typeof r.error.message !== 'string') out.push('error without an integer code and a message');
    if (r.error.code === -32603) out.push(`-32603: an unexpected failure inside the server (${String(r.error.message)})`);
  }
  return out;
}

/**
 * Every way an answer of POST /mcp breaks the rules, as readable lines (empty when it is fine): a JSON-RPC response
 * (errors on 200), a 202 with no body, or the D17 envelope on an HTTP error status; never a 5xx, -32603 or a stack trace.
 */
export function mcpViolations(req: RawRequest, res: RawResponse): string[] {
  const out: string[] = [];
  const text = res.body.toString('utf8');
  if (res.status >= 500) out.push(`answered ${res.status}`);
  if (/\n\s+at .+:\d+:\d+/.test(text)) out.push('a stack trace in the body');
  if (text.includes(CANARY) || text.includes('root:x:0:0:')) out.push('served a file from outside dist/');
  if (res.headers['mcp-session-id']) out.push('issued an Mcp-Session-Id');
  if (res.headers['access-control-allow-origin'] !== '*') out.push('no Access-Control-Allow-Origin: *');
  const type = String(res.headers['content-type'] ?? '');
  if (res.status === 202 || res.status === 204) {
    if (res.body.length) out.push(`${res.status} with a body`);
    return out;
  }
  if (!type.startsWith('application/json'))
    return [...out, `${res.status} answered ${type || 'no content type'}, not JSON (D36: never a stream)`];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [...out, `the body is not JSON: ${text.slice(0, 80)}`];
  }
  if (res.status === 200) {
    const responses = Array.isArray(parsed) ? parsed : [parsed];
    if (Array.isArray(parsed) && parsed.length === 0) out.push('an empty batch response');
    for (const r of responses) out.push(...rpcProblems(r));
  } else if ((parsed as { jsonrpc?: unknown }).jsonrpc !== undefined) {
    // A JSON-RPC error on an HTTP status: input the server cannot accept (400), 2026-07-28's refusals (400), and
    // that revision's unknown method (404).
    out.push(...rpcProblems(parsed));
    const code = (parsed as { error?: { code?: unknown } }).error?.code;
    if (!(MCP_RPC_ERRORS[res.status] ?? []).includes(code as number)) out.push(`JSON-RPC error ${String(code)} on ${res.status}`);
  } else {
    const e = (parsed as { error?: { code?: unknown; status?: unknown; hint?: unknown; documentation_url?: unknown } }).error;
    if (
      !e ||
      e.status !== res.status ||
      typeof e.code !== 'string' ||
      typeof e.hint !== 'string' ||
      e.documentation_url !== `${SITE}/developers`
    )
      out.push(`a ${res.status} without the D17 envelope: ${text.slice(0, 120)}`);
  }
  if (![200, 400, 404, 405, 413, 415].includes(res.status)) out.push(`unexpected status ${res.status}`);
  void req;
  return out;
}
