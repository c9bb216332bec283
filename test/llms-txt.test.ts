// llms.txt and llms-full.txt (D26) over a real `folio serve`: the structure of
// llms.txt, every link resolving on the served site, and llms-full.txt holding
// each served Markdown twin verbatim.
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE, servedDocuments } from './helpers/documents.js';

const { get, text, json, local, posts, projects, services, tags } = servedDocuments();

describe('llms.txt (D26)', () => {
  let body: string;
  beforeAll(async () => {
    body = await text('/llms.txt');
  });

  it('has an H1 with the site title, a blockquote summary, then H2 sections in order', async () => {
    const lines = body.split('\n');
    const site = await json('/api/v1');
    expect(lines[0]).toBe(`# ${site.name.replace(/ API$/, '')}`);
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> \S/);
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('## '))).toEqual([
      '## Profile',
      '## Services',
      '## Writing',
      '## Projects',
      '## API and MCP',
      '## Optional',
    ]);
    // Nothing but prose between the blockquote and the first section: no other headings.
    expect(lines.slice(3, lines.indexOf('## Profile')).some((l) => /^#/.test(l))).toBe(false);
  });

  it('lists items as `- [Name](url): note` linking the Markdown twins, outside API and MCP', () => {
    const sections = body.split('\n## ').slice(1);
    for (const section of sections) {
      const [heading, ...rest] = section.split('\n');
      const items = rest.filter((l) => l.trim() !== '');
      expect(items.length, heading).toBeGreaterThan(0);
      for (const item of items) {
        const m = /^- \[(.+?)\]\((\S+)\)(?:: (.+))?$/.exec(item);
        expect(m, `${heading}: ${item}`).not.toBeNull();
        expect(m![3], `${heading}: ${item} has no note`).toBeTruthy();
        if (heading !== 'API and MCP' && heading !== 'Optional') expect(m![2], item).toMatch(/\.md$/);
      }
    }
  });

  it('links every page and post twin, and the OpenAPI, discovery and MCP addresses', () => {
    const links = new Set([...body.matchAll(/\]\((\S+)\)/g)].map((m) => m[1]));
    for (const path of [
      '/index.md',
      '/about.md',
      '/services.md',
      '/blog.md',
      '/projects.md',
      '/developers.md',
      '/openapi.json',
      '/api/v1',
      '/mcp',
    ])
      expect(links, path).toContain(`${SITE}${path}`);
    for (const post of posts) expect(links).toContain(post.markdown_url);
    for (const project of projects) expect(links).toContain(project.markdown_url);
    // One item per service, linking its own twin (D47).
    for (const service of services) expect(body).toContain(`- [${service.title}](${service.markdown_url}): ${service.summary}`);
    for (const tag of tags) expect(links).toContain(`${SITE}/blog/tags/${tag}.md`);
  });

  it('every link resolves on the served site (/mcp answers GET with 405)', async () => {
    const all = [...new Set([...body.matchAll(/\]\((\S+)\)/g)].map((m) => m[1]!))];
    // The one link off the site is the license of the writing (D51).
    expect(all.filter((url) => !url.startsWith(`${SITE}/`))).toEqual(['https://creativecommons.org/licenses/by/4.0/']);
    const links = all.filter((url) => url.startsWith(`${SITE}/`));
    expect(links.length).toBeGreaterThan(40);
    for (const url of links) {
      const res = await get(local(url));
      expect(res.status, url).toBe(url === `${SITE}/mcp` ? 405 : 200);
      if (url.endsWith('.md')) expect(res.headers.get('content-type'), url).toBe('text/markdown; charset=utf-8');
      await res.arrayBuffer();
    }
  });

  it('llms-full.txt holds the full Markdown of every page and post: each served twin, verbatim', async () => {
    const full = await text('/llms-full.txt');
    expect(full).toMatch(/^# /);
    const pages = [
      `${SITE}/`,
      ...['/about', '/services', '/blog', '/projects', '/developers'].map((p) => SITE + p),
      ...tags.map((t) => `${SITE}/blog/tags/${t}`),
      ...posts.map((p) => p.url),
      ...projects.map((p) => p.url),
    ];
    for (const page of pages) {
      const twin = await text(local(page === `${SITE}/` ? `${SITE}/index.md` : `${page}.md`));
      expect(full.includes(twin), page).toBe(true);
    }
    for (const post of posts) expect(full).toContain(((await json(local(post.api_url))) as any).content_markdown.trim());
  });
});
