// The conformance checks of moved addresses and static files (D43, D48): every
// alias answers 301 to an address that answers 200, and static files are found
// by their decoded path however it is escaped.
import { describe, expect, it } from 'vitest';
import type { Client } from './client.js';
import { ESCAPED_STATIC } from './targets.js';

export function movedAndStaticFiles({ c, get }: Client): void {
  describe('moved addresses and static files (D43, D48)', () => {
    it('answers 301 for every alias, its .md form and a former API address, to the address that answers 200', async () => {
      const moved = Object.entries(c.manifest.redirects ?? {});
      expect(moved.length).toBeGreaterThan(0);
      expect(moved.some(([from]) => from.startsWith('/api/v1/'))).toBe(true);
      expect(moved.some(([from]) => from.endsWith('.md'))).toBe(true);
      for (const [from, to] of moved) {
        const res = await get(from);
        expect(res.status, from).toBe(301);
        expect(new URL(res.headers.get('location')!, c.url + from).pathname, from).toBe(to);
        await res.arrayBuffer();
        const there = await get(to);
        expect(there.status, to).toBe(200);
        await there.arrayBuffer();
      }
    });

    it('serves the sample static files with their own type (every route above checked their bytes and headers)', async () => {
      const res = await get('/.well-known/security.txt');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toMatch(/^Contact: mailto:/m);
    });

    it('serves a static file whose name must be escaped, however the path is escaped', async () => {
      const browser = encodeURI(ESCAPED_STATIC.path);
      const strict = ESCAPED_STATIC.path.split('/').map(encodeURIComponent).join('/');
      expect(browser).not.toBe(strict);
      // Escapes are case-insensitive: %E2 and %e2 are one byte.
      for (const path of [browser, strict, strict.toLowerCase()]) {
        const res = await get(path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type'), path).toBe('text/plain; charset=utf-8');
        expect(await res.text(), path).toBe(ESCAPED_STATIC.text);
      }
      // An escaped slash is not decoded into another path.
      const slash = await get(`/files%2F${strict.slice('/files/'.length)}`);
      expect(slash.status).toBe(404);
      await slash.arrayBuffer();
    });
  });
}
