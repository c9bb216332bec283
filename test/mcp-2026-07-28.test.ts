// The checks of a 2026-07-28 request to POST /mcp (D36): the MCP-Protocol-Version,
// Mcp-Method and Mcp-Name headers mirror the body (-32020), the _meta envelope is
// whole (-32602), and a revision not spoken here is named with the ones that are
// (-32022); each refused on 400 before dispatch.
import { describe, expect, it } from 'vitest';
import { initializeMessage, META, MODERN, mcpServer, rpc, SITE } from './helpers/mcp.js';

const { mcp, modern } = mcpServer();

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
    const res = await mcp(initializeMessage('2025-11-25'), { 'mcp-protocol-version': MODERN });
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
