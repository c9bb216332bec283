// The parts of folio dev, each on its own: the watcher, the planner, the
// rebuilds, the writer, the saving of the cache, the dev server and the reporter (test/dev.test.ts
// runs them together through startDev).
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import { build } from '../build/emit/build.js';
import { loadState } from '../build/emit/cache.js';
import { RecordCache } from '../build/emit/record-cache.js';
import { saver } from '../build/dev/persist.js';
import { choosePath, changedPosts, diffSources, ownersOf, readChanges } from '../build/dev/planner.js';
import { fullBuild, incrementalRebuild, postEdit } from '../build/dev/rebuild.js';
import { reporter } from '../build/dev/reporter.js';
import { startDevServer } from '../build/dev/server.js';
import { devContext, emptySources, initialState, type DevContext, type DevState, type RebuildReport } from '../build/dev/state.js';
import { watchBatches } from '../build/dev/watcher.js';
import { inPlaceSink, removeFile } from '../build/dev/writer.js';
import { problemsPage } from '../build/dev/live-reload.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';

const POST = 'bounce-handling';
let work: string;
let content: string;

beforeAll(async () => {
  work = await tempDir('folio-dev-parts-');
  content = await copyContent();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

function context(out: string): DevContext {
  return devContext({ content, out, now: NOW, cache: false, port: 0, host: '127.0.0.1', log: () => undefined }, null);
}

describe('the watcher', () => {
  it('hands on one batch per burst of events, with paths relative to the content directory', async () => {
    const dir = join(work, 'watched');
    await mkdir(join(dir, 'posts'), { recursive: true });
    const batches: string[][] = [];
    // A quiet time well above the debounce folio dev uses: on a loaded machine two writes a few
    // milliseconds apart can reach the watcher tens of milliseconds apart, and this is about batching, not timing.
    const batcher = watchBatches(
      dir,
      250,
      (paths) => batches.push(paths),
      (error) => batches.push([`error: ${error.message}`]),
    );
    try {
      await writeFile(join(dir, 'posts', 'a.md'), 'one');
      await appendFile(join(dir, 'posts', 'a.md'), ' two');
      expect(batcher.waiting()).toBe(true);
      for (let i = 0; i < 100 && batches.length === 0; i++) await new Promise((ok) => setTimeout(ok, 20));
      expect(batches).toEqual([['posts/a.md']]);
      expect(batcher.waiting()).toBe(false);
      await mkdir(join(dir, 'services'));
      for (let i = 0; i < 100 && batches.length === 1; i++) await new Promise((ok) => setTimeout(ok, 20));
      // A folder that came: with a slash, since what it holds came without events of its own.
      expect(batches[1]).toContain('services/');
    } finally {
      batcher.close();
    }
    await writeFile(join(dir, 'posts', 'b.md'), 'after close');
    await new Promise((ok) => setTimeout(ok, 400));
    expect(batches.flat()).not.toContain('posts/b.md');
  });
});

describe('the planner', () => {
  it('finds what changed between two reads of the content, and which posts kept their place', async () => {
    const before = await loadContent(content);
    const file = join(content, 'posts', `${POST}.md`);
    const original = await readFile(file, 'utf8');
    await writeFile(file, `${original}\nA planner test line.\n`);
    try {
      const after = await readChanges(content, before, [`posts/${POST}.md`]);
      // File names as messages show them: relative to the working directory.
      const shown = relative(process.cwd(), file);
      expect(diffSources(before, after)).toEqual({ added: [], changed: [shown], removed: [] });
      expect(after.services).toBe(before.services);
      expect(changedPosts(before, after)?.map((c) => c.source.file)).toEqual([shown]);
      const state = initialState(after);
      expect(choosePath(state, before)).toBe('full');
      state.build = { routes: new Map() } as DevState['build'];
      expect(choosePath(state, before)).toBe('incremental');
      state.model = {} as DevState['model'];
      expect(choosePath(state, before)).toBe('post-edit');
      expect(choosePath(state, after)).toBe('none');
      state.artifactsBehind = true;
      expect(choosePath(state, after)).toBe('incremental');
      // A folder that came or went: everything is read again, and no post keeps its place.
      const again = await readChanges(content, before, ['posts']);
      expect(again.posts).not.toBe(before.posts);
      expect(changedPosts(before, { ...after, services: [] })).toBeNull();
    } finally {
      await writeFile(file, original);
    }
  });

  it("groups each post's own targets by slug", () => {
    const record = { file: 'f', etag: '"e"', size: 1, set: 0 };
    const owners = ownersOf(
      new Map([
        [`/blog/${POST}`, record],
        [`/blog/${POST}.md`, record],
        [`/api/v1/posts/${POST}`, record],
        ['/blog', record],
      ]),
    );
    expect(owners.get(POST)?.sort()).toEqual([`/api/v1/posts/${POST}`, `/blog/${POST}`, `/blog/${POST}.md`]);
    expect([...owners.keys()]).toEqual([POST]);
  });
});

describe('the rebuilds and the writer', () => {
  it("writes a post's own responses first, then the rest, and ends as a clean build", { timeout: 120_000 }, async () => {
    const out = join(work, 'rebuilt');
    const ctx = context(out);
    const state = initialState(await loadContent(content));
    const first = await fullBuild(ctx, state, performance.now(), emptySources(content));
    expect(first.ok).toBe(true);
    expect(state.build && state.model).toBeTruthy();
    const file = join(content, 'posts', `${POST}.md`);
    const original = await readFile(file, 'utf8');
    try {
      const before = state.sources;
      await writeFile(file, `${original}\nA sentence from the rebuild test.\n`);
      state.sources = await readChanges(content, before, [`posts/${POST}.md`]);
      // The post's own responses are on disk, and nothing else yet, when the rebuild says they can be served.
      const served: string[] = [];
      const edit = await postEdit(ctx, state, performance.now(), before, async (r) => {
        served.push(...r.targets);
        expect(await readFile(join(out, 'blog', `${POST}.md`), 'utf8')).toContain('A sentence from the rebuild test.');
        expect(await readFile(join(out, 'llms-full.txt'), 'utf8')).not.toContain('A sentence from the rebuild test.');
        return true;
      });
      expect(edit?.deferred).toBeTruthy();
      expect(served.sort()).toEqual([`/api/v1/posts/${POST}`, `/blog/${POST}`, `/blog/${POST}.md`]);
      expect(edit!.report.targets).toContain('/llms-full.txt');
      await edit!.deferred!.later();
      const clean = join(work, 'clean-1');
      await cleanBuild({ content, out: clean, now: NOW });
      expect(await treeHash(out)).toEqual(await treeHash(clean));

      // Saved once no rebuild ran for a while, as the next session's warm start; a save held back is not made.
      const cacheDir = join(work, 'cache');
      const saving = { ...ctx, cacheDir, records: await RecordCache.open(cacheDir) };
      const held = saver(saving, state, 10);
      held.schedule();
      await held.hold();
      await new Promise((ok) => setTimeout(ok, 50));
      expect(loadState(cacheDir, out)).toBeNull();
      const saves = saver(saving, state, 10);
      saves.schedule();
      for (let i = 0; i < 100 && !state.stateSaved; i++) await new Promise((ok) => setTimeout(ok, 20));
      expect(loadState(cacheDir, out)?.routes.size).toBe(state.build!.routes.size);

      // A broken file: the problems, and the output as it was.
      const kept = await treeHash(out);
      const broken = state.sources;
      await writeFile(file, '---\ntitle: [unclosed\n---\nbody\n');
      state.sources = await readChanges(content, broken, [`posts/${POST}.md`]);
      const failed = await incrementalRebuild(ctx, state, performance.now(), broken);
      expect(failed.report.ok).toBe(false);
      expect(failed.report.problems[0]!.file).toBe(relative(process.cwd(), file));
      expect(await treeHash(out)).toEqual(kept);
    } finally {
      await writeFile(file, original);
    }
  });

  it('writes through a temporary name and removes emptied folders, never the output itself', async () => {
    const out = join(work, 'sink');
    await inPlaceSink(out).write('a/b/c.txt', 'bytes');
    expect(await readFile(join(out, 'a/b/c.txt'), 'utf8')).toBe('bytes');
    expect(await readdir(join(out, 'a/b'))).toEqual(['c.txt']);
    await inPlaceSink(out).write('a/d.txt', 'more');
    await removeFile(out, 'a/b/c.txt');
    expect(existsSync(join(out, 'a/b'))).toBe(false);
    expect(existsSync(join(out, 'a/d.txt'))).toBe(true);
    await removeFile(out, 'a/d.txt');
    expect(existsSync(join(out, 'a'))).toBe(false);
    expect(existsSync(out)).toBe(true);
  });
});

describe('the reporter', () => {
  const report = (partial: Partial<RebuildReport>): RebuildReport => ({
    ok: true,
    ms: 12.4,
    sources: { added: [], changed: [], removed: [] },
    files: { added: [], changed: [], removed: [] },
    targets: [],
    full: null,
    problems: [],
    ...partial,
  });
  const lines: string[] = [];
  const print = reporter(
    (l) => lines.push(l),
    false,
    NOW,
    () => new Date('2026-11-22T10:11:12'),
  );

  it('says what changed, the first files by name, and the problems at their lines', () => {
    const r = report({
      sources: { added: ['posts/new.md'], changed: ['site.yaml'], removed: [] },
      files: { added: Array.from({ length: 9 }, (_, i) => `f${i}`), changed: ['g'], removed: [] },
      full: 'a change outside the posts',
    });
    print.rebuilt(r, print.trigger(r));
    expect(lines.shift()).toBe(
      '10:11:12 posts/new.md added, site.yaml changed → 1 changed, 9 added, 0 removed in 12 ms (every response asked: a change outside the posts)',
    );
    expect(lines.splice(0, 8)).toEqual([...Array.from({ length: 8 }, (_, i) => `  + f${i}`)]);
    expect(lines.splice(0)).toEqual(['  … and 2 more']);
    print.rebuilt(
      report({ ok: false, problems: [{ file: 'posts/x.md', line: 3, column: 1, message: 'Bad.', hint: 'Fix it.' }] }),
      'posts/x.md changed',
    );
    expect(lines.splice(0)).toEqual([
      '10:11:12 posts/x.md changed → 1 problem; still serving the last good build',
      '  posts/x.md:3:1: Bad.\n    hint: Fix it.',
    ]);
    // A problem of a file or folder as a whole has no line to point at.
    print.rebuilt(report({ ok: false, problems: [{ file: 'content/', line: 0, column: 0, message: 'Gone.', hint: 'Put it back.' }] }), 'x');
    expect(lines.splice(0).slice(1)).toEqual(['  content/: Gone.\n    hint: Put it back.']);
    print.rest(1, 40.2);
    print.rest(null, 0);
    expect(lines.splice(0)).toEqual([
      '  then 1 more file (lists, feeds, model, manifest, search index, host files) in 40 ms',
      '  another change is waiting: the lists, feeds, search index and host files are left to its rebuild',
    ]);
    expect(print.trigger(report({}))).toBe('no content change');
    // A checkout or a folder moved away changes hundreds: the first by name, then how many more.
    const many = (n: number, name: string) => Array.from({ length: n }, (_, i) => `posts/${name}-${i}.md`);
    expect(print.trigger(report({ sources: { added: [], changed: [], removed: many(40, 'gone') } }))).toBe(
      'posts/gone-0.md removed, posts/gone-1.md removed, posts/gone-2.md removed and 37 more removed',
    );
    expect(print.trigger(report({ sources: { added: many(2, 'new'), changed: many(3, 'edited'), removed: many(1, 'gone') } }))).toBe(
      'posts/new-0.md added, posts/new-1.md added, posts/edited-0.md changed and 3 more (2 changed, 1 removed)',
    );
    // Four are named: "and 1 more" would be longer than the name.
    expect(print.trigger(report({ sources: { added: [], changed: many(4, 'edited'), removed: [] } }))).toBe(
      'posts/edited-0.md changed, posts/edited-1.md changed, posts/edited-2.md changed, posts/edited-3.md changed',
    );
    // An image or a folder of them: no content file changed, but the site did (D44).
    expect(print.trigger(report({ images: ['content/posts/img/a.png', 'content/images/'] }))).toBe(
      'content/posts/img/a.png changed, content/images/ changed',
    );
  });

  it("says why a saved post is not published: a draft, or dated after the session's clock (D2)", () => {
    const r = report({
      sources: { added: ['posts/soon.md', 'posts/wip.md'], changed: [], removed: [] },
      held: [
        { file: 'posts/soon.md', date: '2026-11-23' },
        { file: 'posts/wip.md', date: null },
      ],
    });
    print.rebuilt(r, print.trigger(r));
    expect(lines.splice(0).slice(1)).toEqual([
      "  posts/soon.md is dated 2026-11-23, after this session's build clock (2026-11-22, UTC): not published; restart folio dev on that day, or pass --now 2026-11-23, to see it",
      '  posts/wip.md is a draft: not published until draft: true is removed',
    ]);
    // A checkout that brings back many of them names the first, as it does the files.
    const drafts = Array.from({ length: 11 }, (_, i) => ({ file: `posts/wip-${i}.md`, date: null }));
    print.rebuilt(report({ sources: { added: drafts.map((d) => d.file), changed: [], removed: [] }, held: drafts }), 'x');
    const said = lines.splice(0).slice(1);
    expect(said).toHaveLength(9);
    expect(said[7]).toBe('  posts/wip-7.md is a draft: not published until draft: true is removed');
    expect(said[8]).toBe('  … and 3 more posts not published (drafts, or dated after 2026-11-22)');
  });
});

describe('the dev server', () => {
  it(
    'proxies the site with live reload, shows problems, tells open pages, and goes on when clients leave',
    { timeout: 60_000 },
    async () => {
      const out = join(work, 'served');
      await build({ content, out, now: NOW });
      const problems: { file: string; line: number; column: number; message: string; hint: string }[] = [];
      const logged: string[] = [];
      const server = await startDevServer({ out, port: 0, host: '127.0.0.1', problems: () => problems, log: (l) => logged.push(l) });
      try {
        expect((await fetch(`${server.url}/blog`)).status).toBe(503);
        await server.refresh();
        expect(server.serving()).toBe(true);
        const page = await (await fetch(`${server.url}/blog`)).text();
        expect(page).toContain('/_folio/dev/reload.js');
        const api = await fetch(`${server.url}/api/v1/posts/${POST}`);
        expect(api.headers.get('etag')).toBeTruthy();

        // An open page's event stream gets what changed; one that left is dropped without a word.
        const gone = await fetch(`${server.url}/_folio/dev/events`);
        await gone.body!.cancel();
        const stream = await fetch(`${server.url}/_folio/dev/events`);
        const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
        await new Promise((ok) => setTimeout(ok, 50));
        server.tell(['/blog'], false);
        server.tell(['/blog'], false);
        let text = '';
        while (!text.includes('"/blog"')) text += (await reader.read()).value ?? '';
        expect(text).toContain('event: change\ndata: {"all":false,"targets":["/blog"]}');
        await reader.cancel();

        // A client that leaves before its reply: the server goes on.
        await new Promise<void>((ok) => {
          const req = request(`${server.url}/llms-full.txt`, () => undefined);
          req.on('error', () => ok());
          req.end(() => setTimeout(() => (req.destroy(), ok()), 1));
        });
        problems.push({ file: 'posts/x.md', line: 2, column: 1, message: 'A <b>bad</b> field.', hint: 'Fix it.' });
        const shown = await fetch(`${server.url}/blog`, { headers: { accept: 'text/html' } });
        expect(shown.status).toBe(500);
        expect(await shown.text()).toContain('posts/x.md:2:1</code>: A &lt;b&gt;bad&lt;/b&gt; field.');
        problems.pop();

        // The site server cannot reload (the manifest is gone): said once, and the last one keeps serving.
        await rm(join(out, '_folio', 'manifest.json'));
        await server.refresh();
        expect(logged.join('\n')).toMatch(/manifest\.json is missing/);
        expect((await fetch(`${server.url}/api/v1/posts/${POST}`)).status).toBe(200);
        expect(logged).toHaveLength(1);
      } finally {
        await server.close();
      }
    },
  );

  it('lists the problems on a page that counts them in number', () => {
    expect(problemsPage([{ file: 'a.md', line: 1, column: 1, message: 'm', hint: 'h' }])).toContain('The content has 1 problem</h1>');
  });
});
