// POST /mcp at the HTTP level (D16–D18, D36, D41): every status code of the
// endpoint, with raw requests rather than a client, so each rule is seen on
// the wire.
import { build as esbuild } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../build/core/schemas.js';
import { ajv } from './helpers/ajv.js';
import { serveBuilt } from './helpers/site.js';

let s: Awaited<ReturnType<typeof serveBuilt>>;
const SITE = 'https://hannabrink.example';

beforeAll(async () => {
  s = await serveBuilt();
});
afterAll(() => s?.close());

const validEnvelope = ajv.compile(schemas.ErrorEnvelope!);

const JSON_TYPE = 'application/json; charset=utf-8';
const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

function mcp(body: unknown, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> {
  return fetch(`${s.url}/mcp`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: method === 'GET' || method === 'HEAD' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A 2026-07-28 request: the envelope in _meta, mirrored in the headers. */
function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const name: Record<string, string> =
    method === 'tools/call' ? { 'mcp-name': String(params.name) } : method === 'resources/read' ? { 'mcp-name': String(params.uri) } : {};
  return mcp(
    { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } },
    { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...name, ...headers },
  );
}

/** D18 on every MCP response, errors and 202s included; and never a session (D36). */
function expectMcpHeaders(res: Response) {
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
async function expectEnvelope(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe(JSON_TYPE);
  expectMcpHeaders(res);
  const body = (await res.json()) as any;
  expect(validEnvelope(body), JSON.stringify(validEnvelope.errors)).toBe(true);
  expect(body.error).toMatchObject({ code, status, documentation_url: `${SITE}/developers`, openapi_url: `${SITE}/openapi.json` });
  return body.error as { message: string; hint: string };
}

/** A JSON-RPC answer. */
async function rpc(res: Response, status = 200) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe(JSON_TYPE);
  expectMcpHeaders(res);
  const body = (await res.json()) as any;
  expect(body.jsonrpc).toBe('2.0');
  return body;
}

describe('requests that work (D36)', () => {
  it('answers a bare tools/list with no initialize and no version header (D36)', async () => {
    const body = await rpc(await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(body.id).toBe(1);
    expect(body.result.tools.map((t: any) => t.name)).toEqual([
      'site_get_profile',
      'site_list_posts',
      'site_get_post',
      'site_search_writing',
      'site_list_projects',
      'site_check_availability',
    ]);
    expect(body.result.resultType).toBeUndefined();
  });

  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])('initializes on %s, statelessly', async (version) => {
    const res = await mcp(
      {
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { accept: 'application/json, text/event-stream' },
    );
    const body = await rpc(res);
    expect(body.result.protocolVersion).toBe(version);
    expect(body.result.capabilities).toEqual({ tools: {}, resources: {} });
    expect(body.result.serverInfo).toMatchObject({ name: 'example.hannabrink/site', version: expect.any(String) });
    // The next request stands alone: the header names the revision, and nothing ties it to the initialize.
    const next = await rpc(await mcp({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-protocol-version': version }));
    expect(next).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('offers its newest initialize-era revision to a client asking for one it does not speak', async () => {
    const body = await rpc(
      await mcp({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    expect(body.result.protocolVersion).toBe('2025-11-25');
  });

  it('answers server/discover on 2026-07-28 with the revision, capabilities, cache hint and server identity', async () => {
    const body = await rpc(await modern('server/discover'));
    expect(body.result).toMatchObject({
      supportedVersions: [MODERN],
      capabilities: { tools: {}, resources: {} },
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'example.hannabrink/site' } },
    });
  });

  it('answers a 2026-07-28 tools/call with resultType and structuredContent', async () => {
    const body = await rpc(await modern('tools/call', { name: 'site_list_projects', arguments: { status: 'sunset' } }));
    expect(body.result.resultType).toBe('complete');
    expect(body.result.structuredContent.meta).toEqual({ total: expect.any(Number), status: 'sunset' });
  });

  it('takes an optional argument sent as null as left out, and any other wrong type as a tool error', async () => {
    const call = async (args: Record<string, unknown>) =>
      (await rpc(await modern('tools/call', { name: 'site_list_posts', arguments: args }))).result;
    const plain = await call({});
    expect(plain.isError).toBeUndefined();
    expect(await call({ limit: null, tag: null, offset: null })).toEqual(plain);
    const wrong = await call({ limit: true });
    expect(wrong.isError).toBe(true);
  });

  it('acknowledges notifications with 202 and no body', async () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'test' } },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
    ]) {
      const res = await mcp(message);
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
      expectMcpHeaders(res);
    }
  });

  it('acknowledges a posted JSON-RPC response with 202', async () => {
    const res = await mcp({ jsonrpc: '2.0', id: 9, result: {} });
    expect(res.status).toBe(202);
  });

  it('answers a 2025-03-26 batch with one response per request', async () => {
    const res = await mcp([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'nope' },
    ]);
    expect(res.status).toBe(200);
    expectMcpHeaders(res);
    const body = (await res.json()) as any[];
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: expect.objectContaining({ code: -32601 }) },
    ]);
  });

  it('refuses a batch of more than 50 messages with 400 and -32600, answering none of them', async () => {
    const call = { jsonrpc: '2.0', method: 'tools/call', params: { name: 'site_search_writing', arguments: { query: 'ssh', limit: 50 } } };
    const at = (n: number) => Array.from({ length: n }, (_, i) => ({ ...call, id: i }));
    expect(((await (await mcp(at(50))).json()) as unknown[]).length).toBe(50);
    const body = await rpc(await mcp(at(51)), 400);
    expect(body).toMatchObject({ id: null, error: { code: -32600 } });
    expect(body.error.message).toContain('at most 50');
  });

  it('acknowledges a batch of notifications with 202', async () => {
    expect((await mcp([{ jsonrpc: '2.0', method: 'notifications/initialized' }])).status).toBe(202);
  });
});

describe('the HTTP layer (D16, D17, D36, D41)', () => {
  it('answers at /mcp/ too, as a client configured with a trailing slash sends it', async () => {
    const res = await fetch(`${s.url}/mcp/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect((await rpc(res)).result.tools.length).toBeGreaterThan(0);
  });

  it.each(['GET', 'DELETE', 'PUT', 'PATCH'])('answers %s with 405, Allow: POST, OPTIONS and the envelope', async (method) => {
    const res = await mcp(method === 'GET' ? undefined : '{}', { accept: 'text/event-stream' }, method);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    await expectEnvelope(res, 405, 'method_not_allowed');
  });

  it('answers HEAD with 405 and Allow, without a body', async () => {
    const res = await mcp(undefined, {}, 'HEAD');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expectMcpHeaders(res);
    expect(await res.text()).toBe('');
  });

  it('answers a CORS preflight with 204 allowing POST and the MCP request headers', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-method, mcp-name',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of ['content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name']) expect(allowed).toContain(h);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('names the MCP headers in a preflight that does not list them', async () => {
    const res = await fetch(`${s.url}/mcp`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/MCP-Protocol-Version/);
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['']])('answers Content-Type %j with 415', async (type) => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: type ? { 'content-type': type } : {},
      body: new Blob(['{"jsonrpc":"2.0","id":1,"method":"tools/list"}']),
    });
    await expectEnvelope(res, 415, 'unsupported_media_type');
  });

  it('accepts application/json with parameters and in any case', async () => {
    await rpc(await mcp({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'content-type': 'Application/JSON; charset=utf-8' }));
  });

  it.each(['1999-01-01', 'not-a-version', '2024-11-05'])('answers MCP-Protocol-Version %s with 400', async (version) => {
    const error = await expectEnvelope(
      await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': version }),
      400,
      'invalid_request',
    );
    expect(error.hint).toContain('2025-11-25');
    expect(error.hint).toContain(MODERN);
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(1024 * 1024 + 10) } });
    await expectEnvelope(await mcp(big), 413, 'payload_too_large');
  });

  it('answers a body just under 1 MiB normally', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024 - 100) } });
    expect(body.length).toBeLessThan(1024 * 1024);
    expect((await rpc(await mcp(body))).result).toEqual({});
  });
});

describe('JSON-RPC errors (D36)', () => {
  it.each(['{', '', 'not json', '{"jsonrpc":"2.0","id":1,"method":"tools/list"'])(
    'answers malformed JSON %j with -32700 on 400, as the official SDKs do',
    async (text) => {
      const body = await rpc(await mcp(text), 400);
      expect(body).toMatchObject({ id: null, error: { code: -32700 } });
    },
  );

  it('answers a body that is not valid UTF-8 with -32700', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect((await rpc(res, 400)).error.code).toBe(-32700);
  });

  it.each([
    [{ id: 1, method: 'tools/list' }],
    [{ jsonrpc: '1.0', id: 1, method: 'tools/list' }],
    [{ jsonrpc: '2.0', id: 1, method: 42 }],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: [1, 2] }],
    [{ jsonrpc: '2.0', id: { x: 1 }, method: 'tools/list' }],
    ['"just a string"'],
    [[]],
  ])('answers the invalid message %j with -32600', async (message) => {
    const body = await rpc(await mcp(typeof message === 'string' ? message : JSON.stringify(message)), 400);
    expect(body.error.code).toBe(-32600);
  });

  it.each(['prompts/list', 'resources/subscribe', 'logging/setLevel', 'subscriptions/listen', 'no/such/method'])(
    'answers the unknown method %s with -32601',
    async (method) => {
      const body = await rpc(await mcp({ jsonrpc: '2.0', id: 'x', method }));
      expect(body).toMatchObject({ id: 'x', error: { code: -32601 } });
      expect(body.error.message).toContain('tools/list');
    },
  );

  it('answers server/discover without the 2026-07-28 envelope with -32601 that says how to send it', async () => {
    const body = await rpc(await mcp({ jsonrpc: '2.0', id: 1, method: 'server/discover' }));
    expect(body.error.code).toBe(-32601);
    expect(body.error.message).toContain('_meta');
  });

  it('answers initialize on 2026-07-28 with -32601 on 404 (that revision has no handshake)', async () => {
    const body = await rpc(
      await modern('initialize', { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'raw', version: '1' } }),
      404,
    );
    expect(body).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it.each(['prompts/list', 'no/such/method'])('answers the unknown method %s on 2026-07-28 with -32601 on 404', async (method) => {
    expect(await rpc(await modern(method), 404)).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('answers an unknown tool with -32602 naming the tools', async () => {
    const body = await rpc(
      await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'site_delete_everything', arguments: {} } }),
    );
    expect(body).toMatchObject({ id: 3, error: { code: -32602 } });
    expect(body.error.message).toContain('site_search_writing');
  });

  it('answers tools/call without a tool name, or with arguments that are not an object, with -32602', async () => {
    expect((await rpc(await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} }))).error.code).toBe(-32602);
    expect(
      (await rpc(await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'site_get_profile', arguments: [1] } }))).error
        .code,
    ).toBe(-32602);
  });

  it('answers resources/read of an unknown URI with -32002 (2025) and -32602 (2026-07-28)', async () => {
    const uri = `${SITE}/blog/no-such-post.md`;
    expect((await rpc(await mcp({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }))).error).toMatchObject({
      code: -32002,
      data: { uri },
    });
    expect((await rpc(await modern('resources/read', { uri }))).error).toMatchObject({ code: -32602, data: { uri } });
  });

  it('answers an argument nested 100,000 deep with a tool error, not an internal one', async () => {
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const body = await rpc(
      await mcp(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"site_list_posts","arguments":{"tag":${deep}}}}`),
    );
    expect(body.result.isError).toBe(true);
    expect(JSON.parse(body.result.content[0].text).error.message).toContain('not an array');
  });

  it('returns a tool failure in the result, not as a JSON-RPC error', async () => {
    const body = await rpc(
      await mcp({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'site_get_post', arguments: { slug: 'nope' } } }),
    );
    expect(body.result.isError).toBe(true);
    expect(JSON.parse(body.result.content[0].text).error.code).toBe('not_found');
  });
});

describe('2026-07-28 request checks (D36)', () => {
  // The revision refuses these before dispatch with HTTP 400 and a JSON-RPC error of its own, which a dual-era client
  // reads to negotiate: -32020 for a header that does not mirror the body, -32022 for a revision not spoken here,
  // -32602 for a missing or malformed envelope. Each echoes the request's id.
  async function refused(res: Response, code: number) {
    const body = await rpc(res, 400);
    expect(body).toMatchObject({ id: 1, error: { code } });
    return body.error as { message: string; data?: any };
  }

  it('answers a request without MCP-Protocol-Version, or with another one, with -32020', async () => {
    const without = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }, { 'mcp-method': 'tools/list' });
    expect((await refused(without, -32020)).message).toContain('MCP-Protocol-Version header is missing');
    const other = await mcp(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } },
      { 'mcp-method': 'tools/list', 'mcp-protocol-version': '2025-11-25' },
    );
    expect((await refused(other, -32020)).message).toContain('MCP-Protocol-Version is 2025-11-25');
  });

  it('answers a missing or wrong Mcp-Method, and a missing or wrong Mcp-Name, with -32020', async () => {
    const base = { jsonrpc: '2.0', id: 1, params: { _meta: META } };
    const wrong = await mcp({ ...base, method: 'tools/list' }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' });
    expect((await refused(wrong, -32020)).message).toContain('Mcp-Method is tools/call');
    const noMethod = await mcp({ ...base, method: 'tools/list' }, { 'mcp-protocol-version': MODERN });
    expect((await refused(noMethod, -32020)).message).toContain('Mcp-Method header is missing');
    const call = { ...base, method: 'tools/call', params: { name: 'site_get_profile', arguments: {}, _meta: META } };
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' };
    expect((await refused(await mcp(call, { ...headers, 'mcp-name': 'site_list_posts' }), -32020)).message).toContain('Mcp-Name');
    expect((await refused(await mcp(call, headers), -32020)).message).toContain('Mcp-Name header is missing');
  });

  it('accepts an Mcp-Name sent as a base64 sentinel', async () => {
    const uri = `${SITE}/blog/short-lived-ssh-certificates.md`;
    const body = await rpc(await modern('resources/read', { uri }, { 'mcp-name': `=?base64?${Buffer.from(uri).toString('base64')}?=` }));
    expect(body.result.contents[0].uri).toBe(uri);
  });

  it('answers an envelope without client capabilities, or with a version that is not a string, with -32602', async () => {
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };
    const noCapabilities = { 'io.modelcontextprotocol/protocolVersion': MODERN };
    const res = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: noCapabilities } }, headers);
    expect((await refused(res, -32602)).message).toContain('clientCapabilities is missing');
    const notString = { ...META, 'io.modelcontextprotocol/protocolVersion': 20260728 };
    const other = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: notString } }, headers);
    expect((await refused(other, -32602)).message).toContain('protocolVersion is not a string');
  });

  it('answers a 2026-07-28 header on a request without the envelope with -32602 naming the keys', async () => {
    const error = await refused(await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': MODERN }), -32602);
    expect(error.message).toContain('no params._meta envelope');
    expect(error.data.envelope.missing).toEqual(['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities']);
  });

  it('answers initialize under a 2026-07-28 header with -32020', async () => {
    const res = await mcp(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { 'mcp-protocol-version': MODERN },
    );
    expect((await refused(res, -32020)).message).toContain('server/discover');
  });

  it('answers an envelope naming a revision it does not speak with -32022 listing the ones it does', async () => {
    for (const version of ['2099-01-01', '2025-11-25']) {
      const meta = { ...META, 'io.modelcontextprotocol/protocolVersion': version };
      const res = await mcp(
        { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
        { 'mcp-protocol-version': version, 'mcp-method': 'server/discover' },
      );
      const error = await refused(res, -32022);
      expect(error.data).toEqual({ supported: [MODERN], requested: version });
      expect(error.message).toContain('2025-11-25');
    }
  });

  it("answers a header naming a later revision it does not speak with -32022 too, before asking for that revision's envelope", async () => {
    const res = await mcp({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2099-01-01' });
    const error = await refused(res, -32022);
    expect(error.data).toEqual({ supported: [MODERN], requested: '2099-01-01' });
    // The revision it speaks, named without its envelope, is still asked for the envelope.
    const spoken = await mcp({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': MODERN });
    expect((await refused(spoken, -32602)).message).toContain('has no params._meta envelope');
  });

  it('answers a notification whose envelope names another revision than its header with -32020', async () => {
    const res = await mcp(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: META } },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    const body = await rpc(res, 400);
    expect(body).toMatchObject({ id: null, error: { code: -32020 } });
  });
});

describe('the code behind /mcp (D38)', () => {
  it('is core code only: no build-only dependency, and no SDK at run time (its types only)', async () => {
    const result = await esbuild({
      entryPoints: ['build/core/mcp/index.ts'],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      packages: 'external',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((p) => !p.startsWith('build/core/'))).toEqual([]);
    expect(Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path))).toEqual([]);
  });
});
