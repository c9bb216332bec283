// The MCP server card (D31) and server.json (D32) over a real `folio serve`:
// checked against the Server Card draft's and the MCP Registry's rules, and
// against what POST /mcp reports on initialize and server/discover.
import { describe, expect, it } from 'vitest';
import { SITE, servedDocuments } from './helpers/documents.js';
import { initializeMessage } from './helpers/mcp.js';

const { get, text, json } = servedDocuments();

// The name rules of the Server Card draft (modelcontextprotocol/experimental-ext-server-card
// schema.json, ServerCard.name) and of the MCP Registry's server.json (2025-12-11): reverse-DNS,
// exactly one slash, 3–200 characters; description 1–100 characters.
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

describe('MCP server card (D31) and server.json (D32)', () => {
  it('serves the same card at both addresses, following the draft', async () => {
    const a = await text('/.well-known/mcp/server-card.json');
    expect(await text('/mcp/server-card')).toBe(a);
    const card = JSON.parse(a);
    expect(card.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    expect(card.name).toMatch(NAME);
    expect(card.name.length).toBeGreaterThanOrEqual(3);
    expect(card.name.length).toBeLessThanOrEqual(200);
    // Reverse-DNS of the site's host.
    expect(card.name.split('/')[0]).toBe('example.hannabrink');
    expect(card.description.length).toBeGreaterThan(0);
    expect(card.description.length).toBeLessThanOrEqual(100);
    expect(card.title.length).toBeLessThanOrEqual(100);
    expect(card.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(card.websiteUrl).toBe(SITE);
    expect(card.remotes).toHaveLength(1);
    expect(card.remotes[0]).toMatchObject({ type: 'streamable-http', url: `${SITE}/mcp` });
    expect(card.remotes[0].supportedProtocolVersions).toEqual(
      expect.arrayContaining(['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']),
    );
    const allowed = new Set([
      '$schema',
      '_meta',
      'description',
      'icons',
      'name',
      'remotes',
      'repository',
      'title',
      'version',
      'websiteUrl',
    ]);
    for (const key of Object.keys(card)) expect(allowed, key).toContain(key);
  });

  it('server.json follows the MCP Registry schema and agrees with the card', async () => {
    const server = await json('/server.json');
    const card = await json('/mcp/server-card');
    expect(server.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(server.name).toMatch(NAME);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.remotes).toEqual([{ type: 'streamable-http', url: `${SITE}/mcp` }]);
    expect({ name: server.name, version: server.version, description: server.description, title: server.title }).toEqual({
      name: card.name,
      version: card.version,
      description: card.description,
      title: card.title,
    });
  });

  it('agrees with what POST /mcp reports on initialize', async () => {
    const card = await json('/mcp/server-card');
    const initialize = (protocolVersion: string) =>
      get('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initializeMessage(protocolVersion)),
      });
    const initializeVersions = card.remotes[0].supportedProtocolVersions.filter((v: string) => v < '2026-01-01');
    expect(initializeVersions.length).toBeGreaterThan(0);
    for (const version of initializeVersions) {
      const res = await initialize(version);
      expect(res.status, version).toBe(200);
      const { result } = (await res.json()) as any;
      expect(result.serverInfo.name).toBe(card.name);
      expect(result.serverInfo.version).toBe(card.version);
      expect(result.protocolVersion).toBe(version);
    }
  });

  it('lists every revision server/discover reports (the stateless 2026-07-28 leg)', async () => {
    const card = await json('/mcp/server-card');
    const res = await get('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as any;
    expect(result.supportedVersions.length).toBeGreaterThan(0);
    for (const version of result.supportedVersions) expect(card.remotes[0].supportedProtocolVersions).toContain(version);
  });
});
