// D2: drafts and posts dated after the build clock reach no output at all —
// pages, twins, API, search index, feeds, sitemap, llms files, MCP.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBuilt, treeFiles, treeHash } from './helpers/site.js';

const UNPUBLISHED = [
  { slug: 'socket-activation-zero-downtime', title: 'Socket activation for zero-downtime restarts, revisited', why: 'draft' },
  {
    slug: 'selling-a-small-saas-across-the-eu-vat',
    title: 'Selling a small SaaS across the EU: the VAT side, four years in',
    why: 'scheduled for 2027-03-01',
  },
];

let s: Awaited<ReturnType<typeof serveBuilt>>;
beforeAll(async () => {
  s = await serveBuilt();
});
afterAll(() => s?.close());

describe('unpublished posts (D2)', () => {
  it('the sample really has a draft and a scheduled post', async () => {
    expect(await readFile('content/posts/socket-activation-zero-downtime.md', 'utf8')).toMatch(/^draft: true$/m);
    expect(await readFile('content/posts/selling-a-small-saas-across-the-eu-vat.md', 'utf8')).toMatch(/^date: 2027-03-01$/m);
  });

  it('appear in no file of dist/, whatever its kind', async () => {
    const files = treeFiles(await treeHash(s.out));
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const text = await readFile(join(s.out, file), 'utf8');
      for (const post of UNPUBLISHED) {
        expect(text.includes(post.slug), `${post.why} slug in ${file}`).toBe(false);
        expect(text.includes(post.title), `${post.why} title in ${file}`).toBe(false);
      }
    }
  });

  it('are not found by the API, the pages, search or MCP', async () => {
    for (const post of UNPUBLISHED) {
      expect((await fetch(s.at(`/api/v1/posts/${post.slug}`))).status).toBe(404);
      expect((await fetch(s.at(`/blog/${post.slug}`))).status).toBe(404);
      expect((await fetch(s.at(`/blog/${post.slug}.md`))).status).toBe(404);
      const search = await fetch(s.at(`/api/v1/search?q=${encodeURIComponent(post.title)}&limit=50`));
      expect(search.status).toBe(200);
      const hits = ((await search.json()) as { data: { id: string }[] }).data.map((h) => h.id);
      expect(hits).not.toContain(post.slug);
      const mcp = await fetch(s.at('/mcp'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'site_get_post', arguments: { slug: post.slug } },
        }),
      });
      expect(mcp.status).toBe(200);
      const reply = (await mcp.json()) as { result: { isError?: boolean } };
      expect(reply.result.isError).toBe(true);
    }
  });

  it('are published by a build on or after their date', async () => {
    const later = await serveBuilt('content', { now: new Date('2027-03-01T00:00:00Z') });
    try {
      expect((await fetch(later.at('/api/v1/posts/selling-a-small-saas-across-the-eu-vat'))).status).toBe(200);
      expect((await fetch(later.at('/api/v1/posts/socket-activation-zero-downtime'))).status).toBe(404);
    } finally {
      await later.close();
    }
  });
});
