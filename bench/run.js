// `npm run bench`: folio's cold build side by side with Eleventy,
// Hugo and the remark floor on the same generated corpora, then folio's
// rebuild after a one-post edit, its search index against Pagefind's, and
// local serving throughput. Every measured command runs in its own child
// process. Results go to BENCHMARKS.md (between the generated-results
// markers; the rest of that file is written by hand) and, in full, to
// bench/.corpora/last-run.json.
//
// Environment:
//   BENCH_SIZES=1000,10000   corpus sizes (posts) to run
//   BENCH_RUNS=N             runs per tool and size (default 5 at < 10,000 posts, else 3)
//   BENCH_SERVE_SECONDS=10   autocannon duration per server (0 skips serving)
//   BENCH_SKIP=a,b           skip parts: eleventy, hugo, floor, incremental, images, search, edge, wrangler, pagefind, serve, profile
//   BENCH_REPORT=path        where to write the report (default BENCHMARKS.md; "-" prints only)
//   BENCH_NICE=-10           run the bench (and so every measured child) at this niceness, ahead of
//                            other work on a shared machine (negative values need root)
//   BENCH_COMMIT=abc1234     the commit to name in the report when running from a `git archive` snapshot
//   BENCH_QUIET_WAIT=0       before each size, wait up to this many seconds for the 1-minute
//                            load average to fall below BENCH_QUIET_LOAD (default 1.0)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { cpus, getPriority, loadavg, release, setPriority, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA_DIR, ensureCorpus } from './corpus.js';
import { countFiles, hasGnuTime, measure, median } from './measure.js';
import { PHASES, summarise, toMarkdown } from './profile.js';
import { report, writeReport } from './report.js';
import { benchDev } from './dev.js';
import { benchEdge, edgeReport, writeEdgeReport } from './edge.js';
import { benchImages } from './images.js';
import { benchSearch } from './search.js';
import { benchServe } from './serve.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const NOW = '2026-11-22';
const env = process.env;
const SIZES = (env.BENCH_SIZES ?? '1000,10000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0);
const runsFor = (size) => Number(env.BENCH_RUNS) || (size >= 10000 ? 3 : 5);
const SERVE_SECONDS = Number(env.BENCH_SERVE_SECONDS ?? 10);
const SKIP = new Set(
  (env.BENCH_SKIP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const REPORT = env.BENCH_REPORT ?? join(ROOT, 'BENCHMARKS.md');
const QUIET_WAIT = Number(env.BENCH_QUIET_WAIT ?? 0);
const QUIET_LOAD = Number(env.BENCH_QUIET_LOAD ?? 1);

const started = performance.now();
const log = (...a) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s]`, ...a);

// ---------- the machine and the tools ----------

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  return r.status === 0 ? `${r.stdout}`.trim() : null;
}

function machine() {
  const os =
    /PRETTY_NAME="?([^"\n]+)"?/.exec(existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '')?.[1] ?? process.platform;
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    ramGiB: totalmem() / 2 ** 30,
    node: process.version,
    os: `${os}, Linux ${release()}`,
    // BENCH_COMMIT names the commit when the bench runs from an exported snapshot (git archive).
    commit: env.BENCH_COMMIT ?? sh('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }) ?? 'unknown',
    dirty: (sh('git', ['status', '--porcelain', '--', 'build', 'bin', 'scripts'], { cwd: ROOT }) ?? '') !== '',
    gnuTime: hasGnuTime,
  };
}

const pkgVersion = (name) => {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
};

/** Hugo from PATH; when missing and running as root, the Debian package. */
function ensureHugo() {
  const found = () => sh('hugo', ['version']);
  let version = found();
  if (version) return { version };
  if (process.getuid?.() !== 0)
    return { skip: 'Hugo is not installed and this is not root; install it with `apt-get install hugo` to include it.' };
  log('Hugo is missing: apt-get update && apt-get install -y hugo');
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit' });
  const install =
    update.status === 0
      ? spawnSync('apt-get', ['install', '-y', 'hugo'], { stdio: 'inherit', env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } })
      : update;
  version = found();
  if (version) return { version };
  return {
    skip:
      install.status === 0
        ? '`apt-get install -y hugo` succeeded but `hugo` is not on PATH.'
        : `Hugo is not installed and \`apt-get install -y hugo\` failed (exit ${install.status}).`,
  };
}

// ---------- the tools under test ----------

function removeCaches(dirs) {
  for (const d of dirs) rmSync(join(d, '.folio-cache'), { recursive: true, force: true });
}

function tools(ctx) {
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
    skip: t.skip ?? (SKIP.has(t.id) || SKIP.has(t.id.split('-')[0]) ? 'skipped by BENCH_SKIP' : undefined),
  }));
}

/** folio prints "(N files, X MiB, N ms)"; its own build time excludes Node's start-up. */
const folioOwnMs = (stdout) => Number(/, (\d+) ms\)/.exec(stdout)?.[1] ?? NaN);

async function coldBuilds(ctx, runs) {
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
          log(`  ${ctx.size} posts, run ${i}/${runs}: ${t.name}: failed after ${(r.ms / 1000).toFixed(2)} s: ${results[t.id].error}`);
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
        log(
          `  ${ctx.size} posts, run ${i}/${runs}: ${t.name}: ${(r.ms / 1000).toFixed(2)} s, ${(r.peakRss / 2 ** 20).toFixed(0)} MiB, ${files} files`,
        );
      } catch (error) {
        results[t.id].error = String(error.message).split('\n').slice(0, 6).join(' ');
        log(`  ${t.name} failed: ${results[t.id].error}`);
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
async function incremental(ctx, runs) {
  const dir = join(ctx.work, 'incremental');
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(ctx.content, content, { recursive: true });
  const build = () =>
    measure(process.execPath, [join(ROOT, 'bin', 'folio.js'), 'build', '--content', content, '--out', out, '--now', NOW], { cwd: dir });
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
    rows.push({ ms: r.ms, cpuMs: r.cpuMs, ownMs: folioOwnMs(r.stdout), peakRss: r.peakRss });
    log(`  ${ctx.size} posts, one-post edit ${i}/${edits}: ${(r.ms / 1000).toFixed(2)} s (folio's own ${folioOwnMs(r.stdout)} ms)`);
  }
  const dev = await benchDev({ content, out: join(dir, 'dev-dist'), cwd: dir, post, now: NOW, edits: runs, log }).catch((error) => ({
    error: String(error.message).split('\n')[0],
  }));
  return {
    dev,
    kind: cacheDirs.length
      ? `rebuild with a warm ${cacheDirs.map((d) => d.slice(ctx.work.length + 1)).join(', ')}`
      : 'full rebuild: folio keeps no cache and has no incremental mode yet',
    post: posts[posts.length >> 1],
    ms: median(rows.map((r) => r.ms)),
    cpuMs: rows.every((r) => r.cpuMs !== null) ? median(rows.map((r) => r.cpuMs)) : null,
    ownMs: median(rows.map((r) => r.ownMs)),
    peakRss: Math.max(...rows.map((r) => r.peakRss)),
    runs: rows,
  };
}

/** Pagefind over the HTML folio wrote, or over Eleventy's when folio wrote no pages yet. */
async function pagefind(ctx, cold, runs) {
  const bin = join(ROOT, 'node_modules', '.bin', 'pagefind');
  if (!existsSync(bin)) return { skip: 'node_modules/.bin/pagefind is missing (npm ci installs it).' };
  const folioHtml = countHtml(join(ctx.work, 'folio-dist'));
  let site = join(ctx.work, 'folio-dist');
  let over = `folio's ${folioHtml} HTML pages`;
  if (folioHtml < ctx.size) {
    if (!cold.eleventy?.runs.length) return { skip: `folio wrote ${folioHtml} HTML pages for ${ctx.size} posts and Eleventy did not run.` };
    site = join(ctx.work, 'eleventy-out');
    over = `Eleventy's ${countHtml(site)} HTML pages (folio wrote only ${folioHtml} HTML pages)`;
  }
  const out = join(ctx.work, 'pagefind');
  const rows = [];
  for (let i = 0; i < Math.min(runs, 3); i++) {
    rmSync(out, { recursive: true, force: true });
    const r = await measure(bin, ['--site', site, '--output-path', out], { cwd: ctx.work });
    rows.push(r);
  }
  const size = countFiles(out);
  log(
    `  ${ctx.size} posts: Pagefind over ${over}: ${(median(rows.map((r) => r.ms)) / 1000).toFixed(2)} s, ${size.files} files, ${(size.bytes / 2 ** 20).toFixed(1)} MiB`,
  );
  return {
    over,
    ms: median(rows.map((r) => r.ms)),
    peakRss: Math.max(...rows.map((r) => r.peakRss)),
    files: size.files,
    bytes: size.bytes,
  };
}

function countHtml(dir) {
  let n = 0;
  const walk = (d) => {
    for (const e of existsSync(d) ? readdirSync(d, { withFileTypes: true }) : []) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.html')) n++;
    }
  };
  walk(dir);
  return n;
}

/** A CPU profile of one cold folio build, summarised. */
async function profile(ctx) {
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
  log(
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

// ---------- main ----------

/** Waits (bounded) for other work on the machine to settle, so timings mean something. */
async function waitForQuiet() {
  if (!(QUIET_WAIT > 0)) return;
  const until = performance.now() + QUIET_WAIT * 1000;
  while (loadavg()[0] >= QUIET_LOAD && performance.now() < until) await new Promise((ok) => setTimeout(ok, 5000));
  log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}${loadavg()[0] >= QUIET_LOAD ? ` (still ≥ ${QUIET_LOAD} after ${QUIET_WAIT} s; going on)` : ''}`,
  );
}

async function part(name, fn) {
  if (SKIP.has(name)) return { skip: 'skipped by BENCH_SKIP' };
  try {
    return await fn();
  } catch (error) {
    log(`  ${name} failed: ${error.message}`);
    return { error: String(error.message).split('\n')[0] };
  }
}

async function main() {
  if (/^-?\d+$/.test(env.BENCH_NICE ?? '')) {
    // Children inherit the niceness, so every measured command runs at it.
    try {
      setPriority(Number(env.BENCH_NICE));
    } catch (error) {
      log(`BENCH_NICE=${env.BENCH_NICE} could not be applied (${error.message}); going on at niceness ${getPriority()}`);
    }
  }
  const result = {
    date: new Date().toISOString(),
    command: commandLine(),
    machine: machine(),
    nice: getPriority(),
    load: { before: loadavg() },
    sizes: [],
  };
  function commandLine() {
    const vars = Object.keys(env)
      .filter((k) => k.startsWith('BENCH_'))
      .sort()
      .map((k) => `${k}=${env[k]}`);
    return [...vars, 'npm run bench'].join(' ');
  }

  const hugo = SKIP.has('hugo') ? { skip: 'skipped by BENCH_SKIP' } : ensureHugo();
  result.peers = [
    `Eleventy ${pkgVersion('@11ty/eleventy')} with @11ty/eleventy-plugin-syntaxhighlight ${pkgVersion('@11ty/eleventy-plugin-syntaxhighlight')} and markdown-it-footnote ${pkgVersion('markdown-it-footnote')} (bench/peers/eleventy.config.js: the same Markdown to HTML pages, code highlighted and footnotes rendered as folio does (D57), no template engine on Markdown)`,
    hugo.version
      ? `${hugo.version.split(' ').slice(0, 2).join(' ')} (bench/peers/hugo: the same content/ folder, default outputs)`
      : `Hugo: ${hugo.skip}`,
    'the remark floor (bench/peers/floor.js: read, gray-matter, one remark parse and HTML render per file with the plugins folio uses, one HTML file written per post; on one thread, and split over one worker thread per core to show what the cores buy)',
    `Pagefind ${pkgVersion('pagefind')}`,
    `autocannon ${pkgVersion('autocannon')} against \`folio serve\` and serve-handler ${pkgVersion('serve-handler')}`,
  ];
  log(
    `bench: sizes ${SIZES.join(', ')}; ${result.machine.cpu}, ${result.machine.cores} cores; Node ${process.version}; ${hugo.version ?? hugo.skip}`,
  );
  mkdirSync(CORPORA_DIR, { recursive: true });

  for (const size of SIZES) {
    const corpus = await ensureCorpus(size);
    await waitForQuiet();
    const work = mkdtempSync(join(tmpdir(), `folio-bench-${size}-`));
    const ctx = { size, corpus, content: join(corpus, 'content'), work, folioCwd: join(work, 'cwd'), hugo };
    mkdirSync(ctx.folioCwd, { recursive: true });
    const runs = runsFor(size);
    log(`${size} posts: corpus ${corpus.slice(ROOT.length + 1)}, work ${work}, ${runs} runs`);
    const s = { size, runs };
    result.sizes.push(s);
    s.cold = await coldBuilds(ctx, runs);
    const dist = join(work, 'folio-dist');
    if (!existsSync(join(dist, '_folio', 'manifest.json')) && !s.cold.folio.error) {
      // Everything below reads folio's output; keep one even when every timed build was skipped.
      const r = await measure(
        process.execPath,
        [join(ROOT, 'bin', 'folio.js'), 'build', '--content', ctx.content, '--out', dist, '--now', NOW],
        { cwd: ctx.folioCwd, allowFailure: true },
      );
      if (r.code !== 0) s.cold.folio.error = r.stderr.trim().split('\n').slice(0, 6).join(' ');
    }
    if (s.cold.folio.error) {
      // Without a build of this size nothing below has anything to measure.
      const skip = { skip: `folio did not build ${size.toLocaleString('en')} posts (see the table above)` };
      Object.assign(s, { incremental: skip, search: skip, serve: skip });
      s.pagefind = await part('pagefind', () => pagefind(ctx, s.cold, runs));
      s.profile = await part('profile', () => profile(ctx));
      if (!Array.isArray(s.profile)) s.profile = null;
    } else {
      s.incremental = await part('incremental', () => incremental(ctx, runs));
      s.images = await part('images', () => benchImages({ size, runs, log }));
      s.search = await part('search', () => benchSearch({ dist, size, work, log }));
      s.edge = await part('edge', () => benchEdge({ dist, log, wrangler: !SKIP.has('wrangler') }));
      s.pagefind = await part('pagefind', () => pagefind(ctx, s.cold, runs));
      s.serve =
        SERVE_SECONDS > 0
          ? await part('serve', () => benchServe({ dist, seconds: SERVE_SECONDS, log }))
          : { skip: 'BENCH_SERVE_SECONDS=0' };
      s.profile = await part('profile', () => profile(ctx));
      if (!Array.isArray(s.profile)) s.profile = null;
    }
    rmSync(work, { recursive: true, force: true });
    // Saved after every size, so a later failure keeps what was measured.
    writeFileSync(join(CORPORA_DIR, 'last-run.json'), JSON.stringify({ ...result, partial: true }, null, 2));
  }

  result.load.after = loadavg();
  result.totalMs = performance.now() - started;
  writeFileSync(join(CORPORA_DIR, 'last-run.json'), JSON.stringify(result, null, 2));
  writeReport(report(result), REPORT, log);
  if (!SKIP.has('edge')) writeEdgeReport(edgeReport(result.sizes, { date: result.date, commit: result.machine.commit }), REPORT);
  log(`done in ${(result.totalMs / 60000).toFixed(1)} min`);
}

// `node bench/run.js --report-from bench/.corpora/last-run.json` rewrites the report from a saved run.
const from = process.argv.indexOf('--report-from');
if (from !== -1) writeReport(report(JSON.parse(readFileSync(process.argv[from + 1], 'utf8'))), REPORT, log);
else await main();
