// POST /mcp at the HTTP level (D16–D18, D36, D41): the trailing slash, other
// methods (405), CORS preflights, media types (415), MCP-Protocol-Version,
// body limits (413), first with fetch and then byte for byte (chunked bodies,
// raw bytes), with the JSON-RPC errors such requests answer.
import { describe, expect, it } from 'vitest';
import {
  encode,
  expectEnvelope,
  expectMcpHeaders,
  expectRawEnvelope,
  MiB,
  MODERN,
  mcpServer,
  mcpViolations,
  post,
  rpc,
} from './helpers/mcp.js';
import type { RawResponse } from './helpers/raw-http.js';

const server = mcpServer();
const { mcp, send } = server;

describe('the HTTP layer (D16, D17, D36, D41)', () => {
  it('answers at /mcp/ too, as a client configured with a trailing slash sends it', async () => {
    const res = await fetch(`${server.url}/mcp/`, {
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
    const res = await fetch(`${server.url}/mcp`, {
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
    const res = await fetch(`${server.url}/mcp`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/MCP-Protocol-Version/);
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['']])('answers Content-Type %j with 415', async (type) => {
    const res = await fetch(`${server.url}/mcp`, {
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

describe('the HTTP layer of /mcp (D16, D17, D36, D41)', () => {
  it(
    'a body over 1 MiB answers 413 payload_too_large, with or without Content-Length, and the server keeps answering',
    { timeout: 60_000 },
    async () => {
      const big = encode(`{"jsonrpc":"2.0","id":1,"method":"ping","pad":"${'x'.repeat(MiB)}"}`);
      await expectRawEnvelope(await send(post(big)), 413, 'payload_too_large');
      // Chunked, no Content-Length: the limit is counted while reading.
      const chunked = await new Promise<RawResponse>((resolve, reject) => {
        import('node:http').then(({ request }) => {
          const url = new URL(server.url);
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
      if (chunked.status !== -1) await expectRawEnvelope(chunked, 413, 'payload_too_large');
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
      await expectRawEnvelope(await send(post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', headers)), 415, 'unsupported_media_type');
    },
  );

  it.each(['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'])('%s answers 405 with Allow: POST, OPTIONS', async (method) => {
    const res = await send({ method, target: '/mcp', headers: {}, body: null });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
    if (method !== 'HEAD') await expectRawEnvelope(res, 405, 'method_not_allowed');
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
    // {"toString": 1} made String() throw "Cannot convert object to primitive value" (found by the property in fuzz-mcp.test.ts).
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
