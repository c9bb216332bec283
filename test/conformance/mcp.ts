// The conformance checks of the MCP endpoint (D16, D36, D37, D41): tools/list
// and tools/call without a session, its JSON-RPC and HTTP refusals, the
// preflight and the 1 MiB body cap.
import { describe, expect, it } from 'vitest';
import { MCP_HEADERS, type Client, type Json } from './client.js';

export function mcpEndpoint({ get, json, mcp }: Client): void {
  describe('the MCP endpoint (D36, D41)', () => {
    it('lists the six tools on a bare tools/list, with no session (D36, D37)', async () => {
      const res = await mcp({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const body = (await res.json()) as Json;
      expect(body.id).toBe(7);
      expect(body.result.tools.map((t: Json) => t.name).sort()).toEqual([
        'site_check_availability',
        'site_get_post',
        'site_get_profile',
        'site_list_posts',
        'site_list_projects',
        'site_search_writing',
      ]);
    });

    it('answers at /mcp/ as at /mcp (a client configured with a trailing slash)', async () => {
      const res = await get('/mcp/', { method: 'POST', headers: MCP_HEADERS, body: '{"jsonrpc":"2.0","id":3,"method":"tools/list"}' });
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json).result.tools).toHaveLength(6);
    });

    it('calls a tool and returns structured content (D37)', async () => {
      const slug = (await json('/api/v1/posts?limit=1')).body.data[0].slug;
      const body = (await (
        await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'site_get_post', arguments: { slug } } })
      ).json()) as Json;
      expect(body.result.isError ?? false).toBe(false);
      expect(body.result.structuredContent.slug).toBe(slug);
    });

    it('answers GET, HEAD and DELETE with 405 and Allow: POST, OPTIONS (D36)', async () => {
      for (const method of ['GET', 'HEAD', 'DELETE']) {
        const res = await get('/mcp', { method });
        expect(res.status, method).toBe(405);
        expect(res.headers.get('allow'), method).toBe('POST, OPTIONS');
      }
    });

    it('refuses another media type (415), malformed JSON (-32700), unknown methods (-32601) and notifications get 202 (D36)', async () => {
      expect((await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'content-type': 'text/plain' })).status).toBe(415);
      expect(((await (await mcp('{"jsonrpc":')).json()) as Json).error.code).toBe(-32700);
      expect(((await (await mcp({ jsonrpc: '2.0', id: 3, method: 'no/such' })).json()) as Json).error.code).toBe(-32601);
      const note = await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(note.status).toBe(202);
      expect(await note.text()).toBe('');
    });

    it('answers a preflight that allows the MCP headers (D36)', async () => {
      const res = await get('/mcp', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://agent.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-protocol-version');
    });

    it('refuses a body over 1 MiB with 413 (D16, D41)', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(1024 * 1024 + 10) } });
      const res = await mcp(big);
      expect(res.status).toBe(413);
      expect(((await res.json()) as Json).error.code).toBe('payload_too_large');
    });
  });
}
