// The builds `npm run bench` measures (bench/run.js runs them per corpus
// size): each tool's cold build, interleaved; Pagefind over folio's pages;
// profiles of folio's cold build and of the edit after it (folio's timed
// rebuilds after an edit: incremental.js).
// `ctx` is one size's corpus and work folder, with the parts to skip and
// the run's log.
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA_DIR } from './corpus.js';
import { countFiles, freshCheckout, measure, median, replacedOutputsGone } from './measure.js';
import { byThread, summariseFiles, toMarkdown } from './profile.js';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const PAGEFIND = join(ROOT, 'node_modules', '.bin', 'pagefind');
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
  const folioOut = join(ctx.work, 'folio-dist');
  const folioBuild = () => [
    process.execPath,
    [join(ROOT, 'bin', 'folio.js'), 'build', '--content', ctx.content, '--out', folioOut, '--now', NOW],
    ctx.folioCwd,
  ];
  const list = [
    {
      id: 'folio',
      name: 'folio build (cold)',
      out: folioOut,
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
      out: folioOut,
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
      cmd() {
        return [
          process.execPath,
          [
            join(ROOT, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'),
            `--config=${join(ROOT, 'bench', 'peers', 'eleventy.config.js')}`,
            `--input=${ctx.content}`,
            `--output=${this.out}`,
            '--quiet',
          ],
          ctx.work,
        ];
      },
    },
    {
      // Eleventy making folio's site, Pagefind's search index included (D57: the same work).
      id: 'eleventy-site',
      name: `Eleventy ${pkgVersion('@11ty/eleventy')} + Pagefind ${pkgVersion('pagefind')} (the same site)`,
      skip: existsSync(PAGEFIND) ? undefined : 'node_modules/.bin/pagefind is missing (npm ci installs it).',
      out: join(ctx.work, 'eleventy-site-out'),
      prepare() {
        rmSync(this.out, { recursive: true, force: true });
      },
      cmd() {
        return [
          'sh',
          [
            '-c',
            '"$0" "$1" --config="$2" --input="$3" --output="$4" --quiet && "$5" --site "$4" --quiet',
            process.execPath,
            join(ROOT, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'),
            join(ROOT, 'bench', 'peers', 'eleventy-site.config.js'),
            ctx.content,
            this.out,
            PAGEFIND,
          ],
          ctx.work,
        ];
      },
    },
    {
      id: 'hugo',
      name: `Hugo ${/v[\d.]+/.exec(ctx.hugo.version ?? '')?.[0] ?? ''}`.trim(),
      skip: ctx.hugo.skip,
      out: join(ctx.work, 'hugo-out'),
      prepare() {
        for (const d of ['hugo-out', 'hugo-cache', 'hugo-resources']) rmSync(join(ctx.work, d), { recursive: true, force: true });
      },
      cmd() {
        return [
          'hugo',
          [
            '--source',
            join(ROOT, 'bench', 'peers', 'hugo'),
            '--contentDir',
            ctx.content,
            '--destination',
            this.out,
            '--cacheDir',
            join(ctx.work, 'hugo-cache'),
            '--noBuildLock',
            '--quiet',
          ],
          ctx.work,
          // Keeps Hugo's generated resources out of the repository.
          { HUGO_RESOURCEDIR: join(ctx.work, 'hugo-resources') },
        ];
      },
    },
    {
      id: 'floor',
      name: 'remark floor (1 thread)',
      out: join(ctx.work, 'floor-out'),
      prepare() {
        rmSync(this.out, { recursive: true, force: true });
      },
      cmd() {
        return [process.execPath, [join(ROOT, 'bench', 'peers', 'floor.js'), ctx.content, this.out], ctx.work];
      },
    },
    {
      id: 'floor-threads',
      name: `remark floor (${cpus().length} worker threads)`,
      out: join(ctx.work, 'floor-threads-out'),
      prepare() {
        rmSync(this.out, { recursive: true, force: true });
      },
      cmd() {
        return [
          process.execPath,
          [join(ROOT, 'bench', 'peers', 'floor.js'), ctx.content, this.out, '--workers', String(cpus().length)],
          ctx.work,
        ];
      },
    },
  ];
  // "floor" in BENCH_SKIP skips both floors.
  return list.map((t) => ({
    ...t,
    skip: t.skip ?? (ctx.skip.has(t.id) || ctx.skip.has(t.id.split('-')[0]) ? 'skipped by BENCH_SKIP' : undefined),
  }));
}

/** folio prints "(N files, X MiB, N ms)"; its own build time excludes Node's start-up. */
export const folioOwnMs = (stdout) => Number(/, (\d+) ms\)/.exec(stdout)?.[1] ?? NaN);
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

/** One `folio build` under `node --cpu-prof` (a profile per thread into `dir`), summarised by kind of thread. */
async function profiledBuild(ctx, dir, content, out) {
  rmSync(dir, { recursive: true, force: true });
  // A build that fails at the end (say, on a host limit) has still done the work; its profile counts.
  const run = await measure(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, join(ROOT, 'bin', 'folio.js'), 'build', '--content', content, '--out', out, '--now', NOW],
    { cwd: ctx.folioCwd, allowFailure: true },
  );
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (!files.length) throw new Error(`no profile was written (folio exited with ${run.code}: ${run.stderr.trim().split('\n')[0]})`);
  const threads = byThread(summariseFiles([dir]));
  const failed =
    run.code === 0
      ? null
      : `folio exited with ${run.code} (${run.stderr.trim().split('\n').slice(0, 2).join(' ')}); the profile covers the work it did until then.`;
  return { failed, markdown: toMarkdown(threads, 15, { cpuMs: run.cpuMs, ms: run.ms }) };
}

/**
 * Profiles of folio's cold build and of the rebuild after a one-post edit, on
 * a private copy of the corpus. The edit profiled is the second after the
 * cold build, so it stages in the spare output the first one kept, as every
 * edit after the first does; its content is checked out afresh before it,
 * as incremental.js's daily CI edit's is (measure.js freshCheckout).
 */
export async function profile(ctx) {
  const dir = join(ctx.work, 'profile');
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  rmSync(dir, { recursive: true, force: true });
  cpSync(ctx.content, content, { recursive: true });
  removeCaches([ctx.folioCwd, ctx.corpus, ctx.content, ctx.work, dir]);
  const cold = await profiledBuild(ctx, join(dir, 'cold'), content, out);
  const posts = readdirSync(join(content, 'posts')).sort();
  const post = join(content, 'posts', posts[posts.length >> 1]);
  appendFileSync(post, '\nEdited before the profile: one more sentence about cache hit rates.\n');
  await measure(process.execPath, [join(ROOT, 'bin', 'folio.js'), 'build', '--content', content, '--out', out, '--now', NOW], {
    cwd: ctx.folioCwd,
  });
  await replacedOutputsGone(dir);
  freshCheckout(content);
  appendFileSync(post, '\nEdited for the profile: one more sentence about cache hit rates.\n');
  const edit = await profiledBuild(ctx, join(dir, 'edit'), content, out);
  // Kept for a closer look: `node bench/profile.js bench/.corpora/profile-1000/edit` prints the same tables.
  const keep = join(CORPORA_DIR, `profile-${ctx.size}`);
  rmSync(keep, { recursive: true, force: true });
  for (const part of ['cold', 'edit']) cpSync(join(dir, part), join(keep, part), { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  ctx.log(`  ${ctx.size} posts: profiled folio's cold build and a one-post edit (kept in ${relative(ROOT, keep)})`);
  return { cold, edit, kept: relative(ROOT, keep) };
}
