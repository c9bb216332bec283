// POST /mcp requests that are answered (D36), sent raw rather than through a
// client: tools/list with no handshake, initialize on each revision with no
// session, server/discover and tools/call on 2026-07-28, notifications and
// posted responses (202), and batches up to their limit of 50.
import { describe, expect, it } from 'vitest';
import { expectMcpHeaders, initializeMessage, MODERN, mcpServer, rpc, TOOL_NAMES } from './helpers/mcp.js';

const { mcp, modern } = mcpServer();

describe('requests that work (D36)', () => {
  it('answers a bare tools/list with no initialize and no version header (D36)', async () => {
    const body = await rpc(await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(body.id).toBe(1);
    expect(body.result.tools.map((t: any) => t.name)).toEqual(TOOL_NAMES);
    expect(body.result.resultType).toBeUndefined();
  });

  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])('initializes on %s, statelessly', async (version) => {
    const res = await mcp(initializeMessage(version, 'init'), { accept: 'application/json, text/event-stream' });
    const body = await rpc(res);
    expect(body.result.protocolVersion).toBe(version);
    expect(body.result.capabilities).toEqual({ tools: {}, resources: {} });
    expect(body.result.serverInfo).toMatchObject({ name: 'example.hannabrink/site', version: expect.any(String) });
    // The next request stands alone: the header names the revision, and nothing ties it to the initialize.
    const next = await rpc(await mcp({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-protocol-version': version }));
    expect(next).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('offers its newest initialize-era revision to a client asking for one it does not speak', async () => {
    const body = await rpc(await mcp(initializeMessage('2024-11-05')));
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
