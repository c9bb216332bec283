// Reproducible builds (D40): the same content and the same build clock give a
// byte-identical dist/, whichever way the build got there: twice in a row,
// in one thread or across workers, from a cold or a warm cache, and with the
// clock from --now or from SOURCE_DATE_EPOCH.
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { workerScript } from '../build/emit/workers.js';
import { writeCorpus } from './helpers/corpus.js';
import { NOW, tempDir, treeFiles, treeHash } from './helpers/site.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'bin/folio.js');

let work: string;
beforeAll(async () => {
  work = await tempDir('folio-repro-');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

// Whole builds on a shared two-core machine: generous time limits.
const SLOW = { timeout: 240_000 };

describe('reproducible builds (D40)', () => {
  it('builds the sample twice into byte-identical trees', SLOW, async () => {
    const a = await build({ content: 'content', out: join(work, 'a'), now: NOW });
    const b = await build({ content: 'content', out: join(work, 'b'), now: NOW });
    const [ha, hb] = [await treeHash(join(work, 'a')), await treeHash(join(work, 'b'))];
    expect(treeFiles(ha).length).toBe(a.files);
    expect(treeFiles(ha).length).toBeGreaterThan(100);
    expect(hb).toEqual(ha);
    expect(b.bytes).toBe(a.bytes);
  });

  it('writes each address to a file of its own, without a folder per post', SLOW, async () => {
    // The build of the first test: every path to its own file, the per-item ones beside their list.
    const manifest = JSON.parse(await readFile(join(work, 'a', '_folio/manifest.json'), 'utf8')) as {
      routes: Record<string, [string, number]>;
    };
    const files = Object.values(manifest.routes).map(([file]) => file);
    expect(new Set(files).size).toBe(files.length);
    const slugs = Object.keys(manifest.routes)
      .filter((t) => /^\/blog\/[^/.]+$/.test(t) && !t.startsWith('/blog/tags'))
      .map((t) => t.slice('/blog/'.length));
    expect(slugs.length).toBeGreaterThan(3);
    for (const slug of slugs) {
      expect(manifest.routes[`/blog/${slug}`]![0]).toBe(`blog/${slug}.html`);
      expect(manifest.routes[`/blog/${slug}.md`]![0]).toBe(`blog/${slug}.md`);
      expect(manifest.routes[`/api/v1/posts/${slug}`]![0]).toBe(`api/v1/posts/${slug}.json`);
    }
    expect(manifest.routes['/']![0]).toBe('index.html');
    expect(manifest.routes['/api/v1/projects?status=live']?.[0]).toBe('api/v1/projects@status=live.json');
    const dirs = (await readdir(join(work, 'a'), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    for (const slug of slugs) expect(dirs).not.toContain(slug);
  });

  it('gives the same bytes rendered in one thread and across worker threads', SLOW, async () => {
    expect(workerScript(), 'lib/render-worker.js is compiled by the test setup').not.toBeNull();
    // Enough posts that the build starts workers (MIN_JOBS_FOR_WORKERS).
    const content = await writeCorpus(join(work, 'many'), { posts: 260, bodyBytes: 600 });
    const one = await build({ content, out: join(work, 'one-thread'), now: NOW, workers: 0 });
    const two = await build({ content, out: join(work, 'workers'), now: NOW, workers: 2 });
    expect(one.stats.workers).toBe(0);
    expect(two.stats.workers).toBe(2);
    expect(await treeHash(join(work, 'workers'))).toEqual(await treeHash(join(work, 'one-thread')));
  });

  it('gives the same bytes from a cold cache, a warm cache and no cache', SLOW, async () => {
    const cache = join(work, 'cache');
    const cold = await build({ content: 'content', out: join(work, 'cold'), now: NOW, cache });
    const warm = await build({ content: 'content', out: join(work, 'warm'), now: NOW, cache });
    expect(cold.stats.rendered).toBe(cold.stats.sources);
    expect(warm.stats.rendered).toBe(0);
    const none = await treeHash(join(work, 'a'));
    expect(await treeHash(join(work, 'cold'))).toEqual(none);
    expect(await treeHash(join(work, 'warm'))).toEqual(none);
  });

  it('takes the clock from SOURCE_DATE_EPOCH exactly as from --now (D1)', SLOW, async () => {
    const content = join(work, 'content-epoch');
    await cp('content', content, { recursive: true });
    const env = { ...process.env, NO_COLOR: '1' };
    await run(
      process.execPath,
      [CLI, 'build', '--content', content, '--out', join(work, 'by-now'), '--now', NOW.toISOString(), '--no-cache'],
      { env },
    );
    const epoch = String(NOW.getTime() / 1000);
    await run(process.execPath, [CLI, 'build', '--content', content, '--out', join(work, 'by-epoch'), '--no-cache'], {
      env: { ...env, SOURCE_DATE_EPOCH: epoch },
    });
    const byNow = await treeHash(join(work, 'by-now'));
    expect(await treeHash(join(work, 'by-epoch'))).toEqual(byNow);
    // And that clock is the one the tests use everywhere: the same bytes as build() gave.
    expect(byNow).toEqual(await treeHash(join(work, 'a')));
  });
});
