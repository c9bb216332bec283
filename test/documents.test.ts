// The media types of the machine-readable addresses (D35) over a real `folio serve`:
// each one's Content-Type, CORS, nosniff, caching, ETag and HEAD, and every JSON
// document parsing as JSON. Their contents are tested in one file each.
import { describe, expect, it } from 'vitest';
import { servedDocuments } from './helpers/documents.js';

const { get, text } = servedDocuments();

const TYPES: Record<string, string> = {
  '/openapi.json': 'application/json; charset=utf-8',
  '/openapi.yaml': 'application/yaml; charset=utf-8',
  '/llms.txt': 'text/plain; charset=utf-8',
  '/llms-full.txt': 'text/plain; charset=utf-8',
  '/sitemap.xml': 'application/xml; charset=utf-8',
  '/feed.xml': 'application/atom+xml; charset=utf-8',
  '/feed.json': 'application/feed+json; charset=utf-8',
  '/robots.txt': 'text/plain; charset=utf-8',
  '/.well-known/api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  '/.well-known/mcp/server-card.json': 'application/mcp-server-card+json',
  '/mcp/server-card': 'application/mcp-server-card+json',
  '/server.json': 'application/json; charset=utf-8',
  '/.well-known/ai-catalog.json': 'application/ai-catalog+json',
  '/.well-known/agent-instructions': 'text/markdown; charset=utf-8',
};

describe('media types and CORS (D35)', () => {
  it.each(Object.entries(TYPES))('%s answers %s with CORS, nosniff, caching and an ETag; HEAD matches', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const tag = res.headers.get('etag');
    expect(tag).toMatch(/^"[^"]+"$/);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const head = await get(path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(type);
    expect(head.headers.get('etag')).toBe(tag);
    expect(await head.text()).toBe('');

    expect((await get(path, { headers: { 'if-none-match': tag! } })).status).toBe(304);
    const preflight = await get(path, {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect((await get(path, { method: 'DELETE' })).status).toBe(405);
  });

  it('every JSON document parses as JSON', async () => {
    const paths = Object.keys(TYPES).filter((p) => /json/.test(TYPES[p]!));
    expect(paths).toHaveLength(7);
    for (const path of paths) expect(typeof JSON.parse(await text(path)), path).toBe('object');
  });
});
