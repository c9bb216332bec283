// The builds `npm run bench` measures (bench/run.js runs them per corpus
// size): each tool's cold build, interleaved; folio's rebuild after a
// one-post edit; Pagefind over folio's pages; a profile of folio's build.
// `ctx` is one size's corpus and work folder, with the parts to skip and
// the run's log.
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA_DIR } from './corpus.js';
import { benchDev } from './dev.js';
import { countFiles, measure, median } from './measure.js';
import { PHASES, summarise, toMarkdown } from './profile.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
/** The build clock of every run. */
export const NOW = '2026-11-22';

/** The version of an installed package, or null. */
export const pkgVersion = (name) => {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
};

function removeCaches(dirs) {
  for (const d of dirs) rmSync(join(d, '.folio-cache'), { recursive: true, force: true });
}

export function tools(ctx) {
  // The cold and the warm-cache rows run the very same command; only what each deletes first differs.
  const folioBuild = () => [
    process.execPath,
    [join(ROOT, 'bin', 'folio.js'), 'build', '--content', ctx.content, '--out', join(ctx.work, 'folio-dist'), '--now', NOW],
    ctx.folioCwd,
  ];
  const list = [
    {
      id: 'folio',
      name: 'folio build (cold)',
      out: join(ctx.work, 'folio-dist'),
      // Cold means no output and no cache wherever folio may keep one.
      prepare() {
        rmSync(this.out, { recursive: true, force: true });
        removeCaches([ctx.folioCwd, ctx.corpus, ctx.content, ctx.work]);
      },
      cmd: folioBuild,
    },
    {
      // The same build into a fresh output, with the content cache the cold run
      // before it left beside the output (.folio-cache): every file is written
      // again, no Markdown is parsed. What an author's CI gets when it keeps
      // .folio-cache between runs, and what the speed issue's "warm cache" means.
      id: 'folio-warm',
      name: 'folio build (fresh output, warm cache)',
      out: join(ctx.work, 'folio-dist'),
      prepare() {
        rmSync(this.out, { recursive: true, force: true });
      },
      cmd: folioBuild,
    },
    {
      id: 'eleventy',
      name: `Eleventy ${pkgVersion('@11ty/eleventy')}`,
      out: join(ctx.work, 'eleventy-out'),
      prepare() {
        rmSync(this.out, { recursive: true, force: true });
      },
      cmd: () => [
        process.execPath,
        [
          join(ROOT, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'),
          `--config=${join(ROOT, 'bench', 'peers', 'eleventy.config.js')}`,
          `--input=${ctx.content}`,
          `--output=${join(ctx.work, 'eleventy-out')}`,
          '--quiet',
        ],
        ctx.work,
      ],
    },
    {
      id: 'hugo',
      name: `Hugo ${/v[\d.]+/.exec(ctx.hugo.version ?? '')?.[0] ?? ''}`.trim(),
      skip: ctx.hugo.skip,
      out: join(ctx.work, 'hugo-out'),
      prepare() {
        for (const d of ['hugo-out', 'hugo-cache', 'hugo-resources']) rmSync(join(ctx.work, d), { recursive: true, force: true });
      },
      cmd: () => [
        'hugo',
        [
          '--source',
          join(ROOT, 'bench', 'peers', 'hugo'),
          '--contentDir',
          ctx.content,
          '--destination',
          join(ctx.work, 'hugo-out'),
          '--cacheDir',
          join(ctx.work, 'hugo-cache'),
          '--noBuildLock',
          '--quiet',
        ],
        ctx.work,
        // Keeps Hugo's generated resources out of the repository.
        { HUGO_RESOURCEDIR: join(ctx.work, 'hugo-resources') },
      ],
    },
    {
      id: 'floor',
      name: 'remark floor (1 thread)',
      out: join(ctx.work, 'floor-out'),
      prepare() {
        rmSync(this.out, { recursive: true, force: true });
      },
      cmd: () => [process.execPath, [join(ROOT, 'bench', 'peers', 'floor.js'), ctx.content, join(ctx.work, 'floor-out')], ctx.work],
    },
    {
      id: 'floor-threads',
      name: `remark floor (${cpus().length} worker threads)`,
      out: join(ctx.work, 'floor-threads-out'),
      prepare() {
        rmSync(this.out, { recursive: true, force: true });
      },
      cmd: () => [
        process.execPath,
        [join(ROOT, 'bench', 'peers', 'floor.js'), ctx.content, join(ctx.work, 'floor-threads-out'), '--workers', String(cpus().length)],
        ctx.work,
      ],
    },
  ];
  // "floor" in BENCH_SKIP skips both floors.
  return list.map((t) => ({
    ...t,
    skip: t.skip ?? (ctx.skip.has(t.id) || ctx.skip.has(t.id.split('-')[0]) ? 'skipped by BENCH_SKIP' : undefined),
  }));
}

/** folio prints "(N files, X MiB, N ms)"; its own build time excludes Node's start-up. */
const folioOwnMs = (stdout) => Number(/, (\d+) ms\)/.exec(stdout)?.[1] ?? NaN);
/** The files of dist/ a rebuild changed, from folio's summary ("… 90 files changed]"): what a host's deploy uploads again. */
const folioFilesChanged = (stdout) => Number(/(\d+) files changed\]/.exec(stdout)?.[1] ?? NaN);
/** How many responses an incremental build asked for, from its summary (`… 7 of 31883 responses asked …`); NaN for a full build. */
const folioAsked = (stdout) => Number(/(\d+) of \d+ responses asked/.exec(stdout)?.[1] ?? NaN);

export async function coldBuilds(ctx, runs) {
  const list = tools(ctx);
  const results = Object.fromEntries(list.map((t) => [t.id, { id: t.id, name: t.name, skip: t.skip, runs: [] }]));
  // Interleaved (folio, Eleventy, Hugo, floor, folio, …) so that any noise on
  // the machine spreads over every tool rather than landing on one.
  for (let i = 1; i <= runs; i++) {
    for (const t of list) {
      if (t.skip || (results[t.id].error && !results[t.id].failedMs)) continue;
      t.prepare();
      const [cmd, args, cwd, extraEnv] = t.cmd();
      try {
        const r = await measure(cmd, args, { cwd, env: extraEnv, allowFailure: true });
        if (r.code !== 0) {
          // A failed build is timed too: how long the work took before it gave up.
          results[t.id].error = r.stderr.trim().split('\n').slice(0, 2).join(' ').replace(/\s+/g, ' ') || `exit code ${r.code}`;
          (results[t.id].failedMs ??= []).push(r.ms);
          ctx.log(`  ${ctx.size} posts, run ${i}/${runs}: ${t.name}: failed after ${(r.ms / 1000).toFixed(2)} s: ${results[t.id].error}`);
          continue;
        }
        const { files, bytes } = countFiles(t.out);
        results[t.id].runs.push({
          ms: r.ms,
          cpuMs: r.cpuMs,
          peakRss: r.peakRss,
          files,
          bytes,
          ownMs: t.id.startsWith('folio') ? folioOwnMs(r.stdout) : null,
        });
        ctx.log(
          `  ${ctx.size} posts, run ${i}/${runs}: ${t.name}: ${(r.ms / 1000).toFixed(2)} s, ${(r.peakRss / 2 ** 20).toFixed(0)} MiB, ${files} files`,
        );
      } catch (error) {
        results[t.id].error = String(error.message).split('\n').slice(0, 6).join(' ');
        ctx.log(`  ${t.name} failed: ${results[t.id].error}`);
      }
    }
  }
  for (const r of Object.values(results)) {
    if (!r.runs.length) continue;
    r.ms = median(r.runs.map((x) => x.ms));
    r.cpuMs = r.runs.every((x) => x.cpuMs !== null) ? median(r.runs.map((x) => x.cpuMs)) : null;
    r.ownMs = r.id.startsWith('folio') ? median(r.runs.map((x) => x.ownMs)) : null;
    r.peakRss = Math.max(...r.runs.map((x) => x.peakRss));
    r.files = r.runs.at(-1).files;
    r.bytes = r.runs.at(-1).bytes;
    r.min = Math.min(...r.runs.map((x) => x.ms));
    r.max = Math.max(...r.runs.map((x) => x.ms));
  }
  return results;
}

/** A one-post edit, then `folio build` again on a private copy of the corpus. */
export async function incremental(ctx, runs) {
  const dir = join(ctx.work, 'incremental');
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(ctx.content, content, { recursive: true });
  const build = (now = NOW) =>
    measure(process.execPath, [join(ROOT, 'bin', 'folio.js'), 'build', '--content', content, '--out', out, '--now', now], { cwd: dir });
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
  // A daily build in CI: each edit a day after the last, so the build clock's day moves too (what shows the day is made again).
  const daily = [];
  for (let i = 1; cacheDirs.length && i <= edits; i++) {
    appendFileSync(post, `\nEdited for the benchmark on day ${i}: one more sentence about cache hit rates.\n`);
    const day = new Date(Date.parse(NOW) + i * 86_400_000).toISOString().slice(0, 10);
    const r = await build(day);
    daily.push({ ms: r.ms, ownMs: folioOwnMs(r.stdout), peakRss: r.peakRss, asked: folioAsked(r.stdout) });
    ctx.log(
      `  ${ctx.size} posts, one-post edit on the next day ${i}/${edits}: ${(r.ms / 1000).toFixed(2)} s, ${folioAsked(r.stdout)} responses asked`,
    );
  }
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
    daily: daily.length
      ? {
          ms: median(daily.map((r) => r.ms)),
          ownMs: median(daily.map((r) => r.ownMs)),
          asked: median(daily.map((r) => r.asked)),
          peakRss: Math.max(...daily.map((r) => r.peakRss)),
          runs: daily.length,
        }
      : null,
  };
}

/** A CPU profile of one cold folio build, summarised. */
export async function profile(ctx) {
  const dir = join(ctx.work, 'profile');
  rmSync(dir, { recursive: true, force: true });
  removeCaches([ctx.folioCwd, ctx.corpus, ctx.content, ctx.work]);
  // A build that fails at the end (say, on a host limit) has still done the work; its profile counts.
  const run = await measure(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      join(ROOT, 'bin', 'folio.js'),
      'build',
      '--content',
      ctx.content,
      '--out',
      join(dir, 'dist'),
      '--now',
      NOW,
    ],
    { cwd: ctx.folioCwd, allowFailure: true },
  );
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (!files.length) throw new Error(`no profile was written (folio exited with ${run.code}: ${run.stderr.trim().split('\n')[0]})`);
  // With worker threads there is one profile per thread; the summary covers them all.
  const summaries = files.map((f) => summarise(JSON.parse(readFileSync(join(dir, f), 'utf8')), { phases: PHASES }));
  const keep = join(CORPORA_DIR, `folio-${ctx.size}.cpuprofile`);
  if (files.length) cpSync(join(dir, files[0]), keep);
  ctx.log(
    `  ${ctx.size} posts: profiled folio's build (${files.length} profile${files.length === 1 ? '' : 's'}, kept in ${keep.slice(ROOT.length + 1)})`,
  );
  const failed =
    run.code === 0
      ? null
      : `folio exited with ${run.code} (${run.stderr.trim().split('\n').slice(0, 2).join(' ')}); the profile covers the work it did until then.`;
  return summaries.map((s, i) => ({
    file: files[i],
    failed,
    markdown: toMarkdown(s, 15),
    totalMs: s.totalMs,
    modules: s.modules.slice(0, 15),
    phases: s.phases,
  }));
}
