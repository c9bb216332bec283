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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, loadavg, setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA_DIR, ensureCorpus } from './corpus.js';
import { hasGnuTime, measure } from './measure.js';
import { report, writeReport } from './report.js';
import { coldBuilds, NOW, pkgVersion, profile } from './builds.js';
import { incremental } from './incremental.js';
import { pagefind } from './pagefind.js';
import { benchEdge } from './edge.js';
import { edgeReport, writeEdgeReport } from './edge-report.js';
import { machineFacts } from '../scripts/machine.js';
import { benchImages } from './images.js';
import { benchSearch } from './search.js';
import { benchServe } from './serve.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
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
  const { osName, kernel, ...facts } = machineFacts();
  return {
    ...facts,
    os: `${osName}, Linux ${kernel}`,
    // BENCH_COMMIT names the commit when the bench runs from an exported snapshot (git archive).
    commit: env.BENCH_COMMIT ?? sh('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }) ?? 'unknown',
    dirty: (sh('git', ['status', '--porcelain', '--', 'build', 'bin', 'scripts'], { cwd: ROOT }) ?? '') !== '',
    gnuTime: hasGnuTime,
  };
}

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
    `Eleventy ${pkgVersion('@11ty/eleventy')} with @11ty/eleventy-plugin-syntaxhighlight ${pkgVersion('@11ty/eleventy-plugin-syntaxhighlight')} and markdown-it-footnote ${pkgVersion('markdown-it-footnote')} (bench/peers/eleventy.config.js: the same Markdown to HTML pages, code highlighted and footnotes rendered as folio does (D57), no template engine on Markdown); and the same Eleventy making the site folio makes, then Pagefind indexing its HTML (bench/peers/eleventy-site.config.js: besides the pages, each post's Markdown twin and JSON record, the post and tag lists as JSON pages of 20, each tag's page and twin, the feed with every post's HTML, the sitemap and llms-full.txt), the peer of the cold-build target`,
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

  /** The sizes' outputs for the edge part, and the work folders that hold them, removed after it. */
  const edgeDists = [];
  const works = [];
  for (const size of SIZES) {
    const corpus = await ensureCorpus(size);
    await waitForQuiet();
    const work = mkdtempSync(join(tmpdir(), `folio-bench-${size}-`));
    const ctx = { size, corpus, content: join(corpus, 'content'), work, folioCwd: join(work, 'cwd'), hugo, skip: SKIP, log };
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
    } else {
      s.incremental = await part('incremental', () => incremental(ctx, runs));
      s.images = await part('images', () => benchImages({ size, runs, log }));
      s.search = await part('search', () => benchSearch({ dist, size, work, log }));
      // Measured after every size is built, in rounds over the sizes (edge.js).
      if (!SKIP.has('edge')) edgeDists.push({ s, dist });
      s.pagefind = await part('pagefind', () => pagefind(ctx, s.cold, runs));
      s.serve =
        SERVE_SECONDS > 0
          ? await part('serve', () => benchServe({ dist, seconds: SERVE_SECONDS, log }))
          : { skip: 'BENCH_SERVE_SECONDS=0' };
      s.profile = await part('profile', () => profile(ctx));
    }
    if (edgeDists.at(-1)?.s === s) works.push(work);
    else rmSync(work, { recursive: true, force: true });
    // Saved after every size, so a later failure keeps what was measured.
    writeFileSync(join(CORPORA_DIR, 'last-run.json'), JSON.stringify({ ...result, partial: true }, null, 2));
  }

  if (edgeDists.length) {
    const edges = await part('edge', () =>
      benchEdge({ dists: edgeDists.map(({ s, dist }) => ({ size: s.size, dist })), log, wrangler: !SKIP.has('wrangler') }),
    );
    edgeDists.forEach(({ s }, i) => (s.edge = Array.isArray(edges) ? edges[i] : edges));
  }
  for (const work of works) rmSync(work, { recursive: true, force: true });

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
