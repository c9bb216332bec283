// D57: the benchmark's peers do the work folio does. On a small corpus of the
// benchmark's own generator, the commands bench/builds.js runs for Eleventy
// highlight code and render footnotes as folio does, and the cold build's
// peer (Eleventy making the same site, then Pagefind) writes, beside every
// post's page, its twin and record, the paged lists, each tag's page, a feed
// with every post and a search index.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain JavaScript module of the benchmark
import { NOW, tools } from '../bench/builds.js';
// @ts-expect-error a plain JavaScript module of the benchmark
import { corpusFiles } from '../bench/corpus.js';
import { workspace } from './helpers/workspace.js';

interface Tool {
  id: string;
  skip?: string;
  out: string;
  cmd(): [string, string[], string];
}

const ws = workspace('folio-bench-peers-');
const run = promisify(execFile);
const POSTS = 40;
let content: string;
let folio: string;
let peers: Record<string, Tool>;

/** Every file under `dir`, relative to it. */
function filesOf(dir: string, at = ''): string[] {
  return readdirSync(join(dir, at), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesOf(dir, join(at, e.name)) : [join(at, e.name)],
  );
}

beforeAll(async () => {
  content = join(ws.cwd, 'content');
  for (const [path, text] of Object.entries(corpusFiles(POSTS) as Record<string, string>)) {
    await mkdir(dirname(join(content, path)), { recursive: true });
    await writeFile(join(content, path), text);
  }
  folio = join(ws.cwd, 'folio-dist');
  await run(process.execPath, ['bin/folio.js', 'build', '--content', content, '--out', folio, '--now', NOW, '--no-cache']);
  const ctx = {
    content,
    corpus: ws.cwd,
    work: ws.cwd,
    folioCwd: ws.cwd,
    skip: new Set(),
    hugo: { skip: 'not needed' },
    size: POSTS,
    log: () => {},
  };
  peers = Object.fromEntries((tools(ctx) as Tool[]).map((t) => [t.id, t]));
  for (const id of ['eleventy', 'eleventy-site']) {
    expect(peers[id]?.skip, id).toBeUndefined();
    const [cmd, args, cwd] = peers[id]!.cmd();
    await run(cmd, args, { cwd, maxBuffer: 16 * 2 ** 20 });
  }
}, 120_000);

describe('the benchmark peers (D57)', () => {
  const slugs = () => readdirSync(join(content, 'posts')).map((f) => f.replace(/\.md$/, ''));

  it('the corpus has what D57 is about: folio highlighted code and rendered footnotes in it', () => {
    const pages = slugs().map((s) => readFileSync(join(folio, 'blog', `${s}.html`), 'utf8'));
    expect(pages.some((p) => p.includes('class="hljs-'))).toBe(true);
    expect(pages.some((p) => p.includes('data-footnotes'))).toBe(true);
  });

  it.each(['eleventy', 'eleventy-site'])('%s highlights code and renders footnotes', (id) => {
    const out = peers[id]!.out;
    const pages = slugs().map((s) => readFileSync(join(out, 'posts', s, 'index.html'), 'utf8'));
    expect(pages.some((p) => p.includes('class="token '))).toBe(true);
    expect(pages.some((p) => p.includes('class="footnotes"'))).toBe(true);
  });

  it("the cold build's peer writes the site folio writes, and Pagefind's index", () => {
    const out = peers['eleventy-site']!.out;
    const written = new Set(filesOf(out));
    for (const slug of slugs()) {
      expect(written.has(join('blog', `${slug}.md`)), slug).toBe(true);
      expect(written.has(join('api/v1/posts', `${slug}.json`)), slug).toBe(true);
      expect(JSON.parse(readFileSync(join(out, 'api/v1/posts', `${slug}.json`), 'utf8')).content_markdown).toBeTruthy();
    }
    // The same pages of the post list and of each tag's list as folio's, and a page and twin per tag.
    const lists = (dir: string) =>
      filesOf(dir)
        .filter((f) => /^api\/v1\/posts(@(tag=[^&]+)?(&?offset=\d+)?)?\.json$/.test(f))
        .sort();
    expect(lists(out)).toEqual(lists(folio));
    const tags = readdirSync(join(folio, 'blog/tags')).filter((f) => f.endsWith('.html'));
    expect(tags.length).toBeGreaterThan(3);
    for (const tag of tags) {
      expect(written.has(join('blog/tags', tag)), tag).toBe(true);
      expect(written.has(join('blog/tags', tag.replace(/\.html$/, '.md'))), tag).toBe(true);
    }
    expect(readFileSync(join(out, 'feed.xml'), 'utf8').match(/<entry>/g)).toHaveLength(POSTS);
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain(`/blog/${slugs()[0]}<`);
    expect(readFileSync(join(out, 'llms-full.txt'), 'utf8').match(/^# /gm)).toHaveLength(POSTS);
    expect(existsSync(join(out, 'pagefind', 'pagefind.js'))).toBe(true);
  });
});
