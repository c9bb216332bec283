// D61 through the real CLI and a real `folio serve`: three builds of one
// site with its cache, with posts, projects and services added, updated and
// removed between them, and what GET /api/v1/changes says after each.
import { execFile } from 'node:child_process';
import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../build/core/schemas.js';
import { startServer } from '../build/serve.js';
import { ajv } from './helpers/ajv.js';
import { copyContent, tempDir } from './helpers/site.js';

const SITE = 'https://hannabrink.example';
const BASE = `${SITE}/api/v1`;
const run = promisify(execFile);
const validate = ajv.compile(schemas.ChangeList!);

let content: string;
let work: string;
let out: string;

async function build(day: string, dir = out) {
  const { stderr } = await run(
    process.execPath,
    ['bin/folio.js', 'build', '--content', content, '--out', dir, '--now', `${day}T09:00:00Z`],
    { env: { ...process.env, NO_COLOR: '1' } },
  );
  return stderr;
}

/** Every change the served API lists, through its pages, and the first page's meta. */
async function changes(dir = out, query = '') {
  const server = await startServer({ dir, port: 0, host: '127.0.0.1' });
  try {
    const all: any[] = [];
    let url: string | null = `${BASE}/changes${query}`;
    let meta: any;
    for (let guard = 0; url && guard < 50; guard++) {
      const res = await fetch(new URL(url.slice(SITE.length), server.url));
      expect(res.status, url).toBe(200);
      const body = (await res.json()) as any;
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      meta ??= body.meta;
      all.push(...body.data);
      url = body.links.next;
    }
    return { all, meta };
  } finally {
    await server.close();
  }
}

const entry = (all: any[], type: string, id: string, change: string) =>
  all.find((c) => c.type === type && c.id === id && c.change === change);

beforeAll(async () => {
  content = await copyContent();
  work = await tempDir();
  out = join(work, 'dist');
});
afterAll(async () => {
  await rm(content, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

async function edit(file: string, from: string | RegExp, to: string) {
  const path = join(content, file);
  const text = await readFile(path, 'utf8');
  const next = text.replace(from, to);
  expect(next, file).not.toBe(text);
  await writeFile(path, next);
}

describe('the changes feed across three builds (D61)', () => {
  it('build 1, with no previous record: the posts by their dates, nothing undated, and removals known from its own day on', async () => {
    await build('2026-11-22');
    const { all, meta } = await changes();
    expect(meta.tracked_since).toBe('2026-11-22');
    expect(all.every((c) => c.type === 'post')).toBe(true);
    const server = await startServer({ dir: out, port: 0, host: '127.0.0.1' });
    const published = ((await (await fetch(new URL('/api/v1/posts?limit=100', server.url))).json()) as any).data;
    await server.close();
    expect(
      all
        .filter((c) => c.change === 'added')
        .map((c) => c.id)
        .sort(),
    ).toEqual(published.map((p: any) => p.slug).sort());
    for (const p of published) {
      expect(entry(all, 'post', p.slug, 'added')).toMatchObject({ date: p.date, title: p.title, api_url: p.api_url });
      if (p.updated && p.updated > p.date) expect(entry(all, 'post', p.slug, 'updated')).toMatchObject({ date: p.updated });
    }
    // Newest first.
    const dates = all.map((c) => c.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('build 2: a post added, one updated, one removed, a service edited and a project added are listed on their days', async () => {
    await writeFile(
      join(content, 'posts/changes-feed-check.md'),
      '---\ntitle: A new post\ndate: 2026-11-23\ntags: [email]\n---\n\nA short new post.\n',
    );
    await edit('posts/sd-notify-readiness.md', /^date: 2025-08-18$/m, 'date: 2025-08-18\nupdated: 2026-11-23');
    await unlink(join(content, 'posts/retiring-pid-files.md'));
    await edit('services/agentic-coding-enablement.md', /^summary: .*$/m, 'summary: A new summary of the agentic coding service.');
    await writeFile(
      join(content, 'projects/new-thing.md'),
      '---\ntitle: A new thing\nstatus: live\nsummary: Something new.\n---\n\nMore about it.\n',
    );
    await build('2026-11-23');
    const { all, meta } = await changes();
    expect(meta.tracked_since).toBe('2026-11-22');
    const day = all.filter((c) => c.date === '2026-11-23');
    expect(day.map((c) => `${c.change} ${c.type} ${c.id}`).sort()).toEqual(
      [
        'added post changes-feed-check',
        'added project new-thing',
        'removed post retiring-pid-files',
        'updated post sd-notify-readiness',
        'updated service agentic-coding-enablement',
      ].sort(),
    );
    expect(entry(all, 'post', 'retiring-pid-files', 'removed')).toMatchObject({ api_url: `${BASE}/posts/retiring-pid-files` });
    expect(entry(all, 'project', 'new-thing', 'added')).toMatchObject({ title: 'A new thing', api_url: `${BASE}/projects/new-thing` });
    // The projects and services the first build saw have no addition date.
    expect(entry(all, 'project', 'bouncedesk', 'added')).toBeUndefined();
  });

  it('build 3: a project removed; earlier removals stay listed, and `since` and paging answer through the function', async () => {
    await unlink(join(content, 'projects/ci-cache-proxy.md'));
    await build('2026-11-24');
    const { all, meta } = await changes();
    expect(meta.tracked_since).toBe('2026-11-22');
    expect(all[0]).toMatchObject({ type: 'project', id: 'ci-cache-proxy', change: 'removed', date: '2026-11-24' });
    expect(entry(all, 'post', 'retiring-pid-files', 'removed')).toMatchObject({ date: '2026-11-23' });
    expect(entry(all, 'project', 'new-thing', 'added')).toMatchObject({ date: '2026-11-23' });

    const since = await changes(out, '?since=2026-11-23');
    expect(since.meta).toMatchObject({ since: '2026-11-23', total: 6, tracked_since: '2026-11-22' });
    expect(since.all).toEqual(all.filter((c) => c.date >= '2026-11-23'));
    const paged = await changes(out, '?since=2026-11-23&limit=2');
    expect(paged.all).toEqual(since.all);
    expect(paged.meta).toMatchObject({ limit: 2, total: 6 });
    const none = await changes(out, '?since=2027-01-01');
    expect(none).toMatchObject({ all: [], meta: { total: 0 } });
  });

  it('dates project and service pages in the sitemap by the record, not the build day (D27)', async () => {
    const xml = await readFile(join(out, 'sitemap.xml'), 'utf8');
    const lastmod = new Map(
      [...xml.matchAll(/<loc>([^<]+)<\/loc>\s*<lastmod>([^<]+)<\/lastmod>/g)].map((m) => [m[1]!.slice(SITE.length), m[2]!]),
    );
    // Written from the three builds above: the record began on the 22nd; new-thing was added and a service
    // edited on the 23rd; ci-cache-proxy was removed on the 24th, the day of this build.
    expect(lastmod.get('/projects/new-thing')).toBe('2026-11-23');
    expect(lastmod.get('/projects/bouncedesk')).toBe('2026-11-22');
    expect(lastmod.get('/projects')).toBe('2026-11-24');
    expect(lastmod.get('/services/agentic-coding-enablement')).toBe('2026-11-23');
    expect(lastmod.get('/services/email-deliverability')).toBe('2026-11-22');
    expect(lastmod.get('/services')).toBe('2026-11-23');
    expect(lastmod.has('/projects/ci-cache-proxy')).toBe(false);
    // The profile has no record: its page keeps the build day, as the developers page does.
    expect(lastmod.get('/about')).toBe('2026-11-24');
    expect(lastmod.get('/developers')).toBe('2026-11-24');
  });

  it('the latest page is a precomputed file, the same bytes the function would answer', async () => {
    const file = await readFile(join(out, 'api/v1/changes.json'), 'utf8');
    const server = await startServer({ dir: out, port: 0, host: '127.0.0.1' });
    try {
      // An unknown parameter is ignored (D11), so this request reaches the function with the same answer.
      const viaFunction = await (await fetch(new URL('/api/v1/changes?nocache=1', server.url))).text();
      expect(viaFunction).toBe(file);
    } finally {
      await server.close();
    }
  });

  it.each(['2026-11', '2026-02-30', 'yesterday', ''])('since=%s answers 400 invalid_request with the valid format', async (value) => {
    const server = await startServer({ dir: out, port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(new URL(`/api/v1/changes?since=${encodeURIComponent(value)}`, server.url));
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body.error).toMatchObject({ code: 'invalid_request', status: 400 });
      expect(body.error.hint).toContain('YYYY-MM-DD');
      expect(body.error.hint).toContain('since=2026-11-01');
    } finally {
      await server.close();
    }
  });

  it('a build into another directory has no record of its own: it tracks removals from its own day on', async () => {
    const other = join(work, 'elsewhere', 'dist');
    await build('2026-11-24', other);
    const { all, meta } = await changes(other);
    expect(meta.tracked_since).toBe('2026-11-24');
    expect(all.some((c) => c.change === 'removed')).toBe(false);
  });

  it('after the site moves to another address, every entry names the new one, removed items too', async () => {
    await edit('site.yaml', /^site_url: .*$/m, 'site_url: https://moved.example');
    await build('2026-11-25');
    const server = await startServer({ dir: out, port: 0, host: '127.0.0.1' });
    try {
      const body = (await (await fetch(new URL('/api/v1/changes?limit=100', server.url))).json()) as any;
      expect(body.meta.total).toBeLessThanOrEqual(100);
      expect(entry(body.data, 'post', 'retiring-pid-files', 'removed')).toMatchObject({
        api_url: 'https://moved.example/api/v1/posts/retiring-pid-files',
      });
      expect(entry(body.data, 'project', 'ci-cache-proxy', 'removed')).toMatchObject({
        api_url: 'https://moved.example/api/v1/projects/ci-cache-proxy',
      });
      expect(body.data.filter((c: any) => !c.api_url.startsWith('https://moved.example/api/v1/'))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
