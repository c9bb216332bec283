// D59 for small sites, through the real CLI and server: sites with 0 and 1
// of each kind (posts, services, projects) and no statements in site.yaml.
// Counts agree in number; a kind with nothing published shows no empty
// section, no link and no stray punctuation, and its list page says plainly
// that nothing is published yet; the API answers empty lists as ever; and
// the site states nothing about itself but fair use's default.
import { execFile } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../build/serve.js';
import { tempDir } from './helpers/site.js';
import { initializeMessage } from './helpers/mcp.js';
import { SMALL_SITE_URL as SITE, writeSmallSite, type Counts } from './helpers/small-site.js';

const run = promisify(execFile);

async function textFiles(dir: string, sub = ''): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [k, v] of await textFiles(dir, rel)) out.set(k, v);
    else if (/\.(html|md|txt)$/.test(rel)) out.set(rel, await readFile(join(dir, rel), 'utf8'));
  }
  return out;
}

/** Punctuation and counts that only a missing value or a wrong number leaves behind. */
const STRAY: [RegExp, string][] = [
  [/\(\s*;|;\s*\)|\(\s*\)/, 'empty part in parentheses'],
  [/:\s*\./, 'nothing between a colon and a full stop'],
  [/\b1 (posts|projects|services|consulting areas|minutes)\b|\bAll 1\b/, 'a count of one in the plural'],
  [/\b0 (posts?|projects?|services?|consulting (areas?|services?))\b/, 'a count of nothing'],
  [/\bon\s+and more\b/, 'a list with nothing in it'],
  [/<(ul|ol|dl)\b[^>]*>\s*<\/\1>/, 'an empty list element'],
  [/[ \t]+$/m, 'a line ending in a space'],
];

function stray(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    for (const [pattern, what] of STRAY) {
      const m = pattern.exec(text);
      if (m) found.push(`${file}: ${what}: …${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20).replace(/\n/g, '⏎')}…`);
    }
  }
  return found;
}

async function buildSite(n: Counts) {
  const root = await tempDir('folio-small-');
  const content = join(root, 'content');
  const out = join(root, 'dist');
  await writeSmallSite(content, n);
  const { stdout } = await run(
    process.execPath,
    ['bin/folio.js', 'build', '--content', content, '--out', out, '--now', '2026-11-22T00:00:00Z', '--no-cache'],
    { env: { ...process.env, NO_COLOR: '1' } },
  );
  const check = await run(process.execPath, ['bin/folio.js', 'check', '--content', content, '--now', '2026-11-22T00:00:00Z'], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  const server = await startServer({ dir: out, port: 0, host: '127.0.0.1' });
  const files = await textFiles(out);
  return {
    stdout,
    checkOut: check.stdout,
    files,
    get: (path: string, init?: RequestInit) => fetch(server.url + path, init),
    close: async () => {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);

describe('an empty site: nothing published of any kind (D59)', () => {
  let s: Awaited<ReturnType<typeof buildSite>>;
  beforeAll(async () => {
    s = await buildSite({ posts: 0, services: 0, projects: 0 });
  }, 60_000);
  afterAll(() => s?.close());

  it('says so in the CLI summaries', () => {
    expect(s.stdout).toMatch(/^folio: built 0 posts, 0 projects, 0 services → /);
    expect(s.checkOut).toMatch(/\(0 published posts, 0 projects, 0 services\), 0 links checked\./);
  });

  it('leaves no stray punctuation or wrong count in any page, twin or llms.txt', () => {
    expect(s.files.size).toBeGreaterThan(10);
    expect(stray(s.files)).toEqual([]);
  });

  it('leads nowhere empty: no navigation, button or link to an empty list', async () => {
    const empty = ['/blog', '/services', '/projects'];
    for (const [file, text] of s.files) {
      if (!file.endsWith('.html')) continue;
      const bad = hrefs(text).filter((h) => empty.includes(h.replace(/#.*/, '')));
      expect(bad, file).toEqual([]);
    }
    const home = s.files.get('index.html')!;
    for (const id of ['latest', 'services', 'projects']) expect(home).not.toContain(`aria-labelledby="${id}"`);
    expect(home).not.toContain('See services');
    for (const [file, text] of s.files) {
      if (!file.endsWith('.md') && !file.endsWith('.txt')) continue;
      for (const path of empty) expect(text.includes(`](${SITE}${path}.md)`), `${file} links ${path}.md`).toBe(false);
    }
    expect(s.files.get('llms.txt')).not.toMatch(/^## (Services|Writing|Projects)$/m);
  });

  it('says plainly on each list page and its twin that nothing is published yet', async () => {
    for (const [path, what] of [
      ['/blog', 'posts'],
      ['/services', 'services'],
      ['/projects', 'projects'],
    ]) {
      for (const suffix of ['', '.md']) {
        const res = await s.get(path + suffix);
        expect(res.status, path + suffix).toBe(200);
        expect(await res.text(), path + suffix).toContain(`No ${what} are published yet.`);
      }
    }
  });

  it('answers empty lists from the API as ever', async () => {
    for (const path of ['/api/v1/posts', '/api/v1/services', '/api/v1/projects', '/api/v1/search?q=anything']) {
      const res = await s.get(path);
      expect(res.status, path).toBe(200);
      const body = (await res.json()) as { data: unknown[]; meta: { total: number } };
      expect(body.data, path).toEqual([]);
      expect(body.meta.total, path).toBe(0);
    }
  });

  it("estimates llms.txt's JSON answers from the whole answer, meta and links too (D53)", async () => {
    const items = s.files
      .get('llms.txt')!
      .split('\n')
      .filter((l) => /\]\([^)]+\/api\/v1(\/(changes|availability))?\)/.test(l));
    expect(items).toHaveLength(3);
    for (const item of items) {
      const url = new URL(/\]\(([^)]+)\)/.exec(item)![1]!);
      const bytes = (await (await s.get(url.pathname)).arrayBuffer()).byteLength;
      // ceil(bytes / 4), to two significant digits.
      const tokens = Math.ceil(bytes / 4);
      const step = 10 ** Math.max(0, String(tokens).length - 2);
      expect(Number(/\(~([\d,]+) tokens?\)$/.exec(item)![1]!.replaceAll(',', '')), url.pathname).toBe(Math.round(tokens / step) * step);
    }
  });

  it('states nothing about itself but fair use, which it calls a default', async () => {
    const llms = s.files.get('llms.txt')!;
    expect(llms).toContain('please keep to about 60 requests a minute (the default).');
    expect(llms).toContain('Where to start and fair use.');
    const agents = s.files.get('.well-known/agent-instructions.md')!;
    expect(agents).toContain(
      'This site belongs to Test Person: Data engineer. Location: Oslo. It holds a profile with contact routes and availability.',
    );
    expect(agents).not.toContain('What this site is not');
    expect(s.files.get('index.html')).toContain('<p>© 2026 Test Person.</p>');
    expect(s.files.get('robots.txt') ?? (await (await s.get('/robots.txt')).text())).toContain(
      'Fair use: about 60 requests a minute (the default).',
    );
    const discovery = (await (await s.get('/api/v1')).json()) as { fair_use: string };
    expect(discovery.fair_use).toBe('No rate limit is enforced; please stay under about 60 requests per minute (the default).');
    const openapi = (await (await s.get('/openapi.json')).json()) as { info: { description: string } };
    expect(openapi.info.description).toContain('about 60 requests per minute (the default)');
    const init = await s.get('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initializeMessage('2025-06-18')),
    });
    const { result } = (await init.json()) as { result: { instructions: string } };
    expect(result.instructions).toMatch(/needs no authentication\.$/);
    const dev = s.files.get('developers.md')!;
    expect(dev).toContain('- Fair use: about 60 requests a minute (the default), not enforced');
    for (const [file, text] of s.files) expect(text, file).not.toMatch(/advice|disclaim|experience report/i);
  });
});

describe('a site with one of each kind (D59)', () => {
  let s: Awaited<ReturnType<typeof buildSite>>;
  beforeAll(async () => {
    s = await buildSite({ posts: 1, services: 1, projects: 1 });
  }, 60_000);
  afterAll(() => s?.close());

  it('counts in the singular in the CLI summaries', () => {
    expect(s.stdout).toMatch(/^folio: built 1 post, 1 project, 1 service → /);
    expect(s.checkOut).toMatch(/\(1 published post, 1 project, 1 service\)/);
  });

  it('leaves no stray punctuation or wrong count in any page, twin or llms.txt', () => {
    expect(stray(s.files)).toEqual([]);
  });

  it('counts in the singular in pages, twins and llms.txt', () => {
    const home = s.files.get('index.html')!;
    expect(home).toContain('<a href="/blog">1 post</a>');
    expect(home).toContain('<a href="/projects">1 project</a>');
    expect(home).toContain('See services');
    expect(s.files.get('blog.html')).toContain('Posts by Test Person: 1 post, newest first.');
    expect(s.files.get('projects.html')).toContain('content="1 project by Test Person: 1 live."');
    const llms = s.files.get('llms.txt')!;
    expect(llms).toContain('1 consulting area, with the engagements it fits best.');
    expect(llms).toContain('[Writing](https://small.example/blog.md): 1 post.');
    expect(llms).toContain('1 project: live.');
    expect(s.files.get('.well-known/agent-instructions.md')).toContain(
      'It holds a profile with contact routes and availability, 1 consulting service, 1 post, and 1 project (live, delivered or sunset).',
    );
  });

  it('lists a post without tags without empty punctuation', () => {
    expect(s.files.get('blog.md')).toContain('- [Post 1](https://small.example/blog/post-1.md) (2026-01-02): Post number 1.');
    expect(s.files.get('llms.txt')).toContain('- [Post 1](https://small.example/blog/post-1.md): 2026-01-02. Post number 1.');
    const post = s.files.get('blog/post-1.md')!;
    expect(post).not.toMatch(/^- Tags:/m);
    expect(s.files.get('blog.html')).not.toContain('Browse by tag');
  });
});
