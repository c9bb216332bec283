// The conformance checks of every precomputed file (D15, D18, D38, D39): each
// route of the manifest answers its file's bytes with every header of its set,
// HEAD answers the GET headers, and an ETag revalidates to 304.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeHeaders } from '../../build/core/files.js';
import type { Client } from './client.js';

/** Runs `tasks` with at most `limit` in flight; bounded by the list. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

export function precomputedFiles({ c, get }: Client): void {
  describe('every precomputed file (D38, D39)', () => {
    it('answers each manifest route with the file bytes and every header of its set', async () => {
      const problems: string[] = [];
      await pool(Object.entries(c.manifest.routes), 8, async ([target, route]) => {
        const file = route[0];
        const res = await get(target);
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200) return void problems.push(`${target}: status ${res.status}`);
        if (!body.equals(await readFile(join(c.dist, file)))) problems.push(`${target}: body differs from ${file}`);
        for (const [name, value] of Object.entries(routeHeaders(c.manifest.header_sets, route))) {
          if (res.headers.get(name) !== value)
            problems.push(`${target}: ${name} is ${JSON.stringify(res.headers.get(name))}, not ${JSON.stringify(value)}`);
        }
        if (!res.headers.get('etag')?.match(/^"[^"]+"$/)) problems.push(`${target}: no strong ETag`);
      });
      expect(problems).toEqual([]);
      expect(Object.keys(c.manifest.routes).length).toBeGreaterThan(40);
    });

    it('answers HEAD with the GET headers and no body (D15)', async () => {
      for (const target of ['/api/v1/posts', '/api/v1/posts?tag=ci', '/llms.txt', '/', '/blog.md'].filter((t) => t in c.manifest.routes)) {
        const [g, h] = [await get(target), await get(target, { method: 'HEAD' })];
        expect(h.status, target).toBe(200);
        expect(await h.text(), target).toBe('');
        for (const name of ['content-type', 'cache-control', 'access-control-allow-origin', 'vary', 'etag'])
          expect(h.headers.get(name), `${target} ${name}`).toBe(g.headers.get(name));
      }
    });

    it('revalidates with If-None-Match: 304, no body (D18)', async () => {
      for (const target of ['/api/v1', '/api/v1/posts?tag=ci', '/api/v1/posts?limit=3', '/llms.txt', '/']) {
        const first = await get(target);
        const tag = first.headers.get('etag');
        expect(tag, target).toBeTruthy();
        const again = await get(target, { headers: { 'if-none-match': tag! } });
        expect(again.status, target).toBe(304);
        expect(await again.text()).toBe('');
      }
    });
  });
}
