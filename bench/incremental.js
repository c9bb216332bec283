// folio's rebuild after a one-post edit, as `npm run bench` measures it
// (bench/run.js): with the build clock pinned, in the same content folder,
// then as a daily build in CI (a fresh checkout of the content, and the clock
// a day later each run), then a title edit (a field lists show),
// then `folio dev`'s edit → served.
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { folioOwnMs, NOW, ROOT } from './builds.js';
import { benchDev } from './dev.js';
import { freshCheckout, measure, median, replacedOutputsGone } from './measure.js';

/** The files of dist/ a rebuild changed, from folio's summary ("… 90 files changed]"): what a host's deploy uploads again. */
const folioFilesChanged = (stdout) => Number(/(\d+) files changed\]/.exec(stdout)?.[1] ?? NaN);
/** How many responses an incremental build asked for, from its summary (`… 7 of 31883 responses asked …`); NaN for a full build. */
const folioAsked = (stdout) => Number(/(\d+) of \d+ responses asked/.exec(stdout)?.[1] ?? NaN);

/** A one-post edit, then `folio build` again on a private copy of the corpus. */
export async function incremental(ctx, runs) {
  const dir = join(ctx.work, 'incremental');
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(ctx.content, content, { recursive: true });
  const build = async (now = NOW) => {
    await replacedOutputsGone(dir);
    return measure(process.execPath, [join(ROOT, 'bin', 'folio.js'), 'build', '--content', content, '--out', out, '--now', now], {
      cwd: dir,
    });
  };
  await build();
  const cacheDirs = [dir, content].map((d) => join(d, '.folio-cache')).filter((d) => existsSync(d));
  const posts = readdirSync(join(content, 'posts')).sort();
  const post = join(content, 'posts', posts[posts.length >> 1]);
  const rows = [];
  // Without a cache every rebuild is a full build: one is enough at 10,000 posts.
  const edits = cacheDirs.length ? runs : Math.min(runs, ctx.size >= 10000 ? 1 : 3);
  for (let i = 1; i <= edits; i++) {
    appendFileSync(post, `\nEdited for the benchmark, edit ${i}: one more sentence about cache hit rates.\n`);
    const r = await build();
    rows.push({ ms: r.ms, cpuMs: r.cpuMs, ownMs: folioOwnMs(r.stdout), peakRss: r.peakRss, filesChanged: folioFilesChanged(r.stdout) });
    ctx.log(`  ${ctx.size} posts, one-post edit ${i}/${edits}: ${(r.ms / 1000).toFixed(2)} s (folio's own ${folioOwnMs(r.stdout)} ms)`);
  }
  // A daily build in CI: a fresh checkout of the content, and each edit a day after the last, so the build clock's
  // day moves too (what shows the day is made again).
  const daily = [];
  for (let i = 1; cacheDirs.length && i <= edits; i++) {
    freshCheckout(content);
    appendFileSync(post, `\nEdited for the benchmark on day ${i}: one more sentence about cache hit rates.\n`);
    const day = new Date(Date.parse(NOW) + i * 86_400_000).toISOString().slice(0, 10);
    const r = await build(day);
    daily.push({ ms: r.ms, ownMs: folioOwnMs(r.stdout), peakRss: r.peakRss, asked: folioAsked(r.stdout) });
    ctx.log(
      `  ${ctx.size} posts, one-post edit on the next day ${i}/${edits}: ${(r.ms / 1000).toFixed(2)} s, ${folioAsked(r.stdout)} responses asked`,
    );
  }
  // A title edit, the tags kept, on the last daily run's day: the list pages it is on, its tags' pages, feeds and the posts whose related posts show it.
  const titled = [];
  const lastDay = new Date(Date.parse(NOW) + edits * 86_400_000).toISOString().slice(0, 10);
  for (let i = 1; cacheDirs.length && i <= edits; i++) {
    const text = readFileSync(post, 'utf8');
    const next = text.replace(/^title: "(.*)"$/m, `title: "$1, edit ${i}"`);
    if (next === text) throw new Error(`${post} has no quoted title line to edit`);
    writeFileSync(post, next);
    const r = await build(lastDay);
    titled.push({ ms: r.ms, ownMs: folioOwnMs(r.stdout), peakRss: r.peakRss, asked: folioAsked(r.stdout) });
    ctx.log(`  ${ctx.size} posts, title edit ${i}/${edits}: ${(r.ms / 1000).toFixed(2)} s, ${folioAsked(r.stdout)} responses asked`);
  }
  await replacedOutputsGone(dir);
  const dev = await benchDev({ content, out: join(dir, 'dev-dist'), cwd: dir, post, now: NOW, edits: runs, log: ctx.log }).catch(
    (error) => ({
      error: String(error.message).split('\n')[0],
    }),
  );
  return {
    dev,
    kind: cacheDirs.length
      ? `rebuild with a warm ${cacheDirs.map((d) => d.slice(ctx.work.length + 1)).join(', ')}`
      : 'full rebuild: folio keeps no cache and has no incremental mode yet',
    post: posts[posts.length >> 1],
    ms: median(rows.map((r) => r.ms)),
    cpuMs: rows.every((r) => r.cpuMs !== null) ? median(rows.map((r) => r.cpuMs)) : null,
    ownMs: median(rows.map((r) => r.ownMs)),
    filesChanged: median(rows.map((r) => r.filesChanged)),
    peakRss: Math.max(...rows.map((r) => r.peakRss)),
    runs: rows,
    titled: medians(titled),
    daily: medians(daily),
  };
}

/** The medians of a series of rebuilds (wall, inside folio, responses asked) and their peak; null for none. */
function medians(runs) {
  if (!runs.length) return null;
  return {
    ms: median(runs.map((r) => r.ms)),
    ownMs: median(runs.map((r) => r.ownMs)),
    asked: median(runs.map((r) => r.asked)),
    peakRss: Math.max(...runs.map((r) => r.peakRss)),
    runs: runs.length,
  };
}
