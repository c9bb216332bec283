// MCP fuzzing (D16, D17, D36, D41): malformed JSON, wrong types,
// batches, huge ids, deep nesting, oversized bodies and wrong media types,
// POSTed to /mcp of a real `folio serve`. Every answer is a JSON-RPC
// response (errors on 200), a 202 with no body, or the D17 envelope on an
// HTTP error status; never a 5xx, never -32603 (an unexpected throw), never a
// stack trace, and the server keeps answering. FOLIO_FUZZ_SEED replays a seed.
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../build/serve.js';
import { failureReport, fuzzBudget, fuzzRuns, fuzzSeed, recordFigures } from './helpers/fuzz.js';
import { rawRequest, type RawRequest, type RawResponse } from './helpers/raw-http.js';
import { MCP_RPC_ERRORS } from './helpers/request-fuzz.js';
import { buildInto } from './helpers/site.js';

const CANARY = `folio-canary-${randomBytes(8).toString('hex')}`;
const SITE = 'https://hannabrink.example';
const MiB = 1024 * 1024;

let root: string;
let base: string;
let close: () => Promise<void>;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

beforeAll(async () => {
  const built = await buildInto();
  root = join(built.out, '..');
  await writeFile(join(root, 'canary.txt'), CANARY);
  await writeFile(join(root, 'canary.md'), CANARY);
  const server = await startServer({ dir: built.out, port: 0, host: '127.0.0.1' });
  base = server.url;
  close = server.close;
});

afterAll(async () => {
  agent.destroy();
  await close?.();
  if (root) await rm(root, { recursive: true, force: true });
});

const encode = (s: string) => new TextEncoder().encode(s);

function post(body: Uint8Array | string, headers: Record<string, string> = { 'content-type': 'application/json' }): RawRequest {
  return { method: 'POST', target: '/mcp', headers, body: typeof body === 'string' ? encode(body) : body };
}

// ------------------------------------------------------------ generators

const TOOLS = [
  'site_get_profile',
  'site_list_posts',
  'site_get_post',
  'site_search_writing',
  'site_list_projects',
  'site_check_availability',
];
const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'server/discover',
  'prompts/list',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'subscriptions/listen',
  'nope',
  '',
  'tools/list/',
  'TOOLS/LIST',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
];
const VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

/** A JSON value, including the shapes that break naive code: huge numbers, long strings, prototype keys. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      1e308,
      -1e308,
      2 ** 53 + 1,
      -0,
      0.5,
      Number.MAX_SAFE_INTEGER,
      '',
      ' ',
      '__proto__',
      'constructor',
      null,
      true,
      [],
      {},
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'query', 'slug', 'limit'),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  },
);

const id = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1e308, 2 ** 53 + 1, 1.5, -0, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => '9'.repeat(n)),
  fc.constantFrom(null, true, [], {}, [1], { a: 1 }),
);

const argumentsFor: Record<string, fc.Arbitrary<unknown>> = {
  site_get_profile: fc.oneof(fc.constant({}), fc.record({ extra: value })),
  site_list_posts: fc.record({ tag: value, limit: value, offset: value }, { requiredKeys: [] }),
  site_get_post: fc.record(
    { slug: fc.oneof(fc.constantFrom('retiring-pid-files', '../../canary', '..%2f..%2fcanary', 'nope', '', '%00', 'ÄÖ'), value) },
    { requiredKeys: [] },
  ),
  site_search_writing: fc.record(
    { query: fc.oneof(fc.constantFrom('ssh', 'deliverabilty', '', ' ', '*', '"', '\\', 'a'.repeat(201)), value), limit: value },
    { requiredKeys: [] },
  ),
  site_list_projects: fc.record(
    { status: fc.oneof(fc.constantFrom('live', 'sunset', 'delivered', 'LIVE', 'paused'), value) },
    { requiredKeys: [] },
  ),
  site_check_availability: fc.record(
    {
      service: fc.oneof(fc.constantFrom('email-deliverability', 'agentic-coding-enablement', 'nope', '', 'EMAIL-DELIVERABILITY'), value),
      month: fc.oneof(fc.constantFrom('2026-12', '2027-04', '2027-05', '2026-1', '2026-13', '', '9999-99'), value),
    },
    { requiredKeys: [] },
  ),
};

const toolCall = fc.constantFrom(...TOOLS).chain((name) =>
  fc.record(
    {
      name: fc.oneof({ weight: 5, arbitrary: fc.constant<unknown>(name) }, { weight: 1, arbitrary: value }),
      arguments: fc.oneof({ weight: 5, arbitrary: argumentsFor[name]! }, { weight: 1, arbitrary: value }),
    },
    { requiredKeys: [] },
  ),
);

const resourceUri = fc.constantFrom(
  `${SITE}/blog/retiring-pid-files.md`,
  `${SITE}/blog/../../canary.md`,
  `${SITE}/blog/%2e%2e%2f%2e%2e%2fcanary.md`,
  `${SITE}/../canary.md`,
  'file:///etc/passwd',
  `file://${'/'.repeat(3)}canary.md`,
  `${SITE}/_folio/site.json`,
  `${SITE}/blog/nope.md`,
  'https://evil.example/blog/retiring-pid-files.md',
  '',
  'not a uri',
);

const meta = fc.record({
  _meta: fc.record(
    {
      'io.modelcontextprotocol/protocolVersion': fc.oneof(fc.constantFrom(...VERSIONS), value),
      'io.modelcontextprotocol/clientCapabilities': fc.oneof(fc.constant({}), value),
    },
    { requiredKeys: [] },
  ),
});

const params = fc.oneof(
  { weight: 3, arbitrary: toolCall },
  { weight: 1, arbitrary: fc.record({ uri: fc.oneof(resourceUri, value) }) },
  {
    weight: 1,
    arbitrary: fc.record(
      { protocolVersion: fc.oneof(fc.constantFrom(...VERSIONS, '1999-01-01'), value), capabilities: value, clientInfo: value },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.tuple(toolCall, meta).map(([a, b]) => ({ ...a, ...b })) },
  { weight: 1, arbitrary: fc.record({ cursor: value }) },
  { weight: 1, arbitrary: value },
);

const message = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant<unknown>('2.0') }, { weight: 1, arbitrary: value }),
    id,
    method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom<unknown>(...METHODS) }, { weight: 1, arbitrary: value }),
    params,
    result: value,
    error: value,
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);

/** Nesting n deep in a place the server reads (arguments), in a place it does not (extra), or as the id. */
const deep = fc
  .tuple(fc.integer({ min: 100, max: 100_000 }), fc.constantFrom('[', '{"a":'), fc.constantFrom('arguments', 'extra', 'params', 'id'))
  .map(([n, open, where]) => {
    const close = open === '[' ? ']' : '}';
    const nest = `${open.repeat(n)}1${close.repeat(n)}`;
    if (where === 'arguments')
      return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"site_list_posts","arguments":{"tag":${nest}}}}`;
    if (where === 'params') return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${nest}}`;
    if (where === 'id') return `{"jsonrpc":"2.0","id":${nest},"method":"ping"}`;
    return `{"jsonrpc":"2.0","id":1,"method":"ping","extra":${nest}}`;
  });

const bodyText = fc.oneof(
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 2, arbitrary: fc.array(fc.oneof(message, value), { maxLength: 6 }).map((ms) => JSON.stringify(ms)) },
  { weight: 1, arbitrary: deep },
  // Malformed JSON: a valid message cut short, or made invalid.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        message.map((m) => JSON.stringify(m)),
        fc.nat(),
      )
      .map(([s, n]) => s.slice(0, n % Math.max(1, s.length))),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      '1',
      '"x"',
      '[]',
      '{}',
      '[[]]',
      '{"jsonrpc":"2.0"',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list",}',
      "{'jsonrpc':'2.0'}",
      'NaN',
      '{"__proto__":{"polluted":1},"jsonrpc":"2.0","id":1,"method":"ping"}',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

const body = fc.oneof(
  { weight: 9, arbitrary: bodyText.map(encode) },
  // Bytes that are not UTF-8.
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }) },
);

const headers = fc.record(
  {
    'content-type': fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/jsonx',
          'application/json-rpc',
          'multipart/form-data; boundary=x',
          '',
          ';',
          'application/json;;;',
        ),
      },
    ),
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', 'text/html'),
    'mcp-protocol-version': fc.oneof(fc.constantFrom(...VERSIONS), fc.constantFrom('1999-01-01', '', 'latest')),
    'mcp-method': fc.constantFrom(...METHODS),
    'mcp-name': fc.constantFrom(...TOOLS, '=?base64?!!!?=', '=?base64?c2l0ZV9nZXRfcHJvZmlsZQ==?='),
    'mcp-session-id': fc.constantFrom('abc', ''),
  },
  { requiredKeys: ['content-type'] },
);

// ------------------------------------------------------------ checks

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

function mcpViolations(req: RawRequest, res: RawResponse): string[] {
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

async function send(req: RawRequest): Promise<RawResponse> {
  return rawRequest(base, req, agent, 20_000);
}

async function expectEnvelope(res: RawResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['access-control-allow-origin']).toBe('*');
  const body = JSON.parse(res.body.toString('utf8'));
  expect(body.error).toMatchObject({ code, status, documentation_url: `${SITE}/developers`, openapi_url: `${SITE}/openapi.json` });
}

// ------------------------------------------------------------ tests

describe('random JSON-RPC bodies and headers to POST /mcp', () => {
  it('answer JSON-RPC, a 202 or the envelope; never 5xx, -32603 or a crash', { timeout: fuzzBudget(60_000) }, async () => {
    const seed = fuzzSeed();
    let inputs = 0;
    let requests = 0;
    let failures = 0;
    const started = performance.now();
    const details = await fc.check(
      fc.asyncProperty(body, headers, async (bytes, hs) => {
        inputs++;
        const req = post(bytes, hs);
        requests++;
        let res: RawResponse;
        try {
          res = await send(req);
        } catch (error) {
          failures++;
          throw new Error(`no answer: ${(error as Error).message}`, { cause: error });
        }
        const bad = mcpViolations(req, res);
        if (inputs % 25 === 0) {
          requests++;
          const alive = await send(post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'));
          if (alive.status !== 200) bad.push('the server stopped answering tools/list');
        }
        if (bad.length) {
          failures++;
          throw new Error(
            `${JSON.stringify(hs)} ${Buffer.from(bytes).toString('utf8').slice(0, 300)} → ${res.status}: ${bad.join('; ')}\n${res.body.toString('utf8').slice(0, 300)}`,
          );
        }
      }),
      { numRuns: fuzzRuns(300), seed, interruptAfterTimeLimit: fuzzBudget(15_000), markInterruptAsFailure: false },
    );
    recordFigures({
      name: 'MCP: JSON-RPC bodies and headers',
      target: 'folio serve POST /mcp',
      inputs,
      requests,
      failures,
      seed,
      ms: Math.round(performance.now() - started),
    });
    expect(details.failed, failureReport(details)).toBe(false);
    expect(inputs).toBeGreaterThan(30);
  });
});

describe('the HTTP layer of /mcp (D16, D17, D36, D41)', () => {
  it(
    'a body over 1 MiB answers 413 payload_too_large, with or without Content-Length, and the server keeps answering',
    { timeout: 60_000 },
    async () => {
      const big = encode(`{"jsonrpc":"2.0","id":1,"method":"ping","pad":"${'x'.repeat(MiB)}"}`);
      await expectEnvelope(await send(post(big)), 413, 'payload_too_large');
      // Chunked, no Content-Length: the limit is counted while reading.
      const chunked = await new Promise<RawResponse>((resolve, reject) => {
        import('node:http').then(({ request }) => {
          const url = new URL(base);
          const r = request(
            {
              host: url.hostname,
              port: url.port,
              method: 'POST',
              path: '/mcp',
              headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
            },
          );
          r.on('error', reject);
          for (let i = 0; i < 20; i++) r.write(big.subarray(0, 128 * 1024));
          r.end();
        }, reject);
      }).catch((error: Error) => ({ status: -1, headers: {}, body: Buffer.from(error.message) }) as RawResponse);
      // The server may stop reading and close: either the envelope or a closed socket, never a 5xx.
      if (chunked.status !== -1) await expectEnvelope(chunked, 413, 'payload_too_large');
      const ok = await send(post('{"jsonrpc":"2.0","id":7,"method":"tools/list"}'));
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body.toString('utf8')).result.tools).toHaveLength(6);
    },
  );

  it('a body of exactly 1 MiB is read', async () => {
    const head = '{"jsonrpc":"2.0","id":1,"method":"ping","pad":"';
    const exact = encode(`${head}${'x'.repeat(MiB - head.length - 2)}"}`);
    expect(exact.byteLength).toBe(MiB);
    const res = await send(post(exact));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json', ''])(
    'Content-Type "%s" answers 415 unsupported_media_type',
    async (type) => {
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      await expectEnvelope(await send(post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', headers)), 415, 'unsupported_media_type');
    },
  );

  it.each(['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'])('%s answers 405 with Allow: POST, OPTIONS', async (method) => {
    const res = await send({ method, target: '/mcp', headers: {}, body: null });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
    if (method !== 'HEAD') await expectEnvelope(res, 405, 'method_not_allowed');
  });

  it.each([
    ['malformed JSON', '{"jsonrpc":"2.0","id":1,', -32700],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), -32700],
    ['an unknown method', '{"jsonrpc":"2.0","id":1,"method":"nope"}', -32601],
    ['an unknown tool', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}}', -32602],
    ['a wrong jsonrpc', '{"jsonrpc":"1.0","id":1,"method":"ping"}', -32600],
    ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600],
    [
      'arguments that are a string',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"site_list_posts","arguments":"x"}}',
      -32602,
    ],
    ['an empty batch', '[]', -32600],
  ] as const)('%s answers its JSON-RPC error code', async (_name, payload, code) => {
    const res = await send(post(typeof payload === 'string' ? payload : new Uint8Array(payload)));
    // Input the server cannot accept at all is refused with 400, as the official SDKs do; a method or params it
    // cannot answer is an answer, on 200.
    expect(res.status).toBe(code === -32601 || code === -32602 ? 200 : 400);
    expect(JSON.parse(res.body.toString('utf8')).error.code).toBe(code);
  });

  it('a huge id is echoed exactly, and deep nesting in the arguments is answered, not thrown', async () => {
    const hugeId = '9'.repeat(300_000);
    const echoed = await send(post(`{"jsonrpc":"2.0","id":"${hugeId}","method":"ping"}`));
    expect(echoed.status).toBe(200);
    expect(JSON.parse(echoed.body.toString('utf8')).id).toBe(hugeId);
    const nested = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const res = await send(
      post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"site_list_posts","arguments":{"tag":${nested}}}}`),
    );
    expect(mcpViolations(post(''), res)).toEqual([]);
    expect(res.status).toBe(200);
  });

  it('a notification whose _meta version is an object that cannot be turned into text answers 400, not 500', async () => {
    // {"toString": 1} made String() throw "Cannot convert object to primitive value" (found by the property above).
    for (const claim of ['{"toString":1}', '{"valueOf":{}, "toString":[]}', '[1,2]', 'null', '7']) {
      const body = `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":${claim}}}}`;
      const res = await send(post(body, { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28' }));
      expect(res.status, claim).toBe(400);
      const answer = JSON.parse(res.body.toString('utf8'));
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32020 } });
      expect(answer.error.message).toContain('MCP-Protocol-Version is 2026-07-28');
    }
  });

  it('a batch answers each request in order and drops notifications', async () => {
    const res = await send(
      post(
        '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"nope"},5]',
      ),
    );
    expect(res.status).toBe(200);
    const answers = JSON.parse(res.body.toString('utf8'));
    expect(answers.map((a: { id: unknown }) => a.id)).toEqual([1, 'b', null]);
    expect(answers.map((a: { error?: { code: number } }) => a.error?.code ?? 0)).toEqual([0, -32601, -32600]);
  });
});
