// The conformance checks of the machine-readable addresses (D25-D35): the API
// catalog announced on HEAD, and CORS and a media type on every document.
import { describe, expect, it } from 'vitest';
import type { Client } from './client.js';

export function machineReadableAddresses({ c, get }: Client): void {
  describe('machine-readable addresses (D25-D35)', () => {
    it('announces the API catalog on HEAD (D30)', async () => {
      const res = await get('/.well-known/api-catalog', { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
      expect(res.headers.get('link')).toBe(`<${c.site}/.well-known/api-catalog>; rel="api-catalog"`);
    });

    it('sends CORS and a media type on every document (D35)', async () => {
      for (const path of [
        '/openapi.json',
        '/openapi.yaml',
        '/llms.txt',
        '/llms-full.txt',
        '/sitemap.xml',
        '/feed.xml',
        '/feed.json',
        '/robots.txt',
        '/server.json',
        '/.well-known/mcp/server-card.json',
        '/mcp/server-card',
        '/.well-known/ai-catalog.json',
        '/.well-known/agent-instructions',
      ]) {
        const res = await get(path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(res.headers.get('content-type'), path).toMatch(/^[a-z]+\/[a-z0-9.+-]+/);
      }
    });
  });
}
