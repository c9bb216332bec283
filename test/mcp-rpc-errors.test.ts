// The JSON-RPC errors of POST /mcp (D36), sent raw rather than through a
// client: malformed JSON (-32700), invalid messages (-32600), unknown methods
// (-32601, on 404 under 2026-07-28), bad tool calls and unknown resources
// (-32602, -32002), and tool failures answered in the result instead.
import { describe, expect, it } from 'vitest';
import { MODERN, mcpServer, rpc, SITE } from './helpers/mcp.js';

const server = mcpServer();
const { mcp, modern } = server;

describe('JSON-RPC errors (D36)', () => {
  it.each(['{', '', 'not json', '{"jsonrpc":"2.0","id":1,"method":"tools/list"'])(
    'answers malformed JSON %j with -32700 on 400, as the official SDKs do',
    async (text) => {
      const body = await rpc(await mcp(text), 400);
      expect(body).toMatchObject({ id: null, error: { code: -32700 } });
    },
  );

  it('answers a body that is not valid UTF-8 with -32700', async () => {
    const res = await fetch(`${server.url}/mcp`, {
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
