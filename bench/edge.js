// Edge cold cost (D55): the functions/ folder bundled as Cloudflare Pages
// bundles it (`wrangler pages functions build`: one ESM script with Pages'
// router and the middleware, not minified), then, in a fresh
// Node process per sample, import that script and answer one first request
// through its fetch handler, with env.ASSETS reading the built dist/.
// CPU time of import + first answer, median of BENCH_EDGE_RUNS samples
// taken in rounds over every size and kind, for:
//
// - MCP `site_get_post` (POST /mcp, tools/call);
// - search (GET /api/v1/search?q=…, the benchmark's first query);
// - Markdown by Accept (GET /blog/{slug} with Accept: text/markdown);
// - a page of the post list the build did not enumerate (limit=7&offset=…);
// - the baseline: the same import and one asset read (the post's JSON).
//
// MCP, Accept and the baseline are also measured through a script built the
// same way from a middleware that answers at once (bench/peers/pages-floor):
// what Pages' router and a request's plumbing cost, apart from folio's code.
//
// Also the size of each function's own bundle and of the whole script
// (the Workers free plan allows 3 MiB after compression), and the same
// requests as first requests on `wrangler pages dev` (./edge-wrangler.js).
//
//   node bench/edge.js [1000,10000] [--reuse]   builds the corpora (bench/corpus.js) into
//                                           bench/.corpora/edge-dist-<size> (--reuse: keep a
//                                           previous build there) and writes the edge section
//                                           of BENCHMARKS.md
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CORPORA_DIR, ensureCorpus } from './corpus.js';
import { measure, median } from './measure.js';
import { queries } from './search.js';
import { benchWrangler } from './edge-wrangler.js';
import { edgeReport, KINDS, RUNS, writeEdgeReport } from './edge-report.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const NOW = '2026-11-22';
/** Each function file Pages routes to: the middleware alone answers every request. */
export const FUNCTIONS = ['functions/_middleware.ts'];

/**
 * The requests also measured through Pages' router alone (bench/peers/pages-floor: a middleware
 * answering at once), so that the report can tell the router's cost from folio's.
 */
const FLOOR_KINDS = ['mcp', 'accept', 'baseline'];

/** What wrangler hands esbuild for a Pages Functions script: workerd's conditions, one ESM file, not minified. */
export const PAGES_ESBUILD = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
};

function esbuild(entry, outfile) {
  const options = { ...PAGES_ESBUILD, entryPoints: [entry], outfile, logLevel: 'error' };
  const r = spawnSync(process.execPath, ['-e', `import('esbuild').then((e) => e.build(${JSON.stringify(options)}))`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`bundling ${entry} failed: ${r.stderr.trim().split('\n')[0]}`);
  return outfile;
}

const WRANGLER = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');

/**
 * The whole script as a Pages deployment runs it: `wrangler pages functions
 * build` on root's functions/, Pages' own router (which runs the middleware,
 * then any route file the path names) included; its default export is the
 * worker. Offline, with a HOME of its own, as scripts/wrangler.js runs wrangler.
 */
export function bundleWorker(dir, root = ROOT, name = 'edge-worker') {
  const out = join(dir, `${name}-wrangler`);
  const home = mkdtempSync(join(tmpdir(), 'folio-wrangler-build-'));
  const r = spawnSync(process.execPath, [WRANGLER, 'pages', 'functions', 'build', '--outdir', out], {
    cwd: root,
    env: { ...process.env, HOME: home, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  rmSync(home, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`wrangler pages functions build failed in ${root}:\n${(r.stderr || r.stdout).trim()}`);
  const script = join(dir, `${name}.mjs`);
  copyFileSync(join(out, 'index.js'), script);
  return script;
}

/**
 * The functions of another commit (BENCH_EDGE_BEFORE), bundled the same way,
 * for a before/after in the same run: its build/ and functions/ from `git
 * archive`, with this checkout's node_modules. Its functions read the files
 * it knew (_folio/site.json, the manifest, the whole index), which every
 * build still writes. Null when not asked for or not possible.
 */
function bundleBefore(dir, commit) {
  if (!commit) return null;
  const root = join(dir, 'before');
  mkdirSync(root, { recursive: true });
  const archive = spawnSync(
    'sh',
    ['-c', `git archive ${JSON.stringify(commit)} build functions package.json | tar -x -C ${JSON.stringify(root)}`],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (archive.status !== 0) return null;
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  return bundleWorker(dir, root, 'edge-before');
}

/** Bytes of each function's own bundle and of the whole script, raw and gzipped. */
function bundleSizes(dir) {
  const size = (file) => {
    const bytes = readFileSync(file);
    return { bytes: bytes.byteLength, gzip: gzipSync(bytes).byteLength };
  };
  const functions = FUNCTIONS.map((f, i) => ({ file: f, ...size(esbuild(join(ROOT, f), join(dir, `edge-fn-${i}.mjs`))) }));
  return { functions, worker: size(join(dir, 'edge-worker.mjs')) };
}

/** Picks the requests for a dist: a post in the middle, the first benchmark query, an offset past the precomputed pages' grid. */
function requestsFor(dist) {
  const outline = JSON.parse(readFileSync(join(dist, '_folio/edge/posts.json'), 'utf8'));
  const chunk = JSON.parse(readFileSync(join(dist, `_folio/edge/posts/all-${Math.floor(outline.total / 2 / 20)}.json`), 'utf8'));
  const slug = chunk.items[0].slug;
  return { slug, query: queries()[0], offset: Math.floor(outline.total / 2) + 3 };
}

/** The median figures of one kind's samples. */
const summary = (runs) => ({
  cpuMs: median(runs.map((r) => r.cpuMs)),
  ms: median(runs.map((r) => r.ms)),
  importCpuMs: median(runs.map((r) => r.importCpuMs)),
  reads: runs[0].reads,
  readBytes: runs[0].readBytes,
  status: runs[0].status,
});

/**
 * Cold figures for built dists of several sizes (`[{ size, dist }]`): median
 * CPU and wall time per kind of request, each sample in a fresh process. The
 * targets are ratios between sizes and kinds, so each round takes one sample
 * of every kind at every size: noise on the machine falls on all alike, not
 * on whichever size ran in a busier minute. One result per dist, in order.
 */
export async function benchEdge({ dists, log = console.log, before = process.env.BENCH_EDGE_BEFORE, wrangler = true }) {
  const ready = dists.filter(({ dist }) => existsSync(join(dist, '_folio/edge/head.json')));
  if (!ready.length) return dists.map(() => ({ skip: 'the build wrote no _folio/edge/head.json' }));
  const dir = mkdtempSync(join(tmpdir(), 'folio-edge-bench-'));
  try {
    const worker = bundleWorker(dir);
    const sizes = bundleSizes(dir);
    const old = bundleBefore(dir, before);
    const floor = bundleWorker(dir, join(ROOT, 'bench', 'peers', 'pages-floor'), 'pages-floor');
    const scripts = [['', worker], ['floor', floor], ...(old ? [['before', old]] : [])];
    const runs = ready.map(({ size, dist }) => ({ size, dist, ...requestsFor(dist), samples: {} }));
    for (let i = 0; i < RUNS; i++) {
      for (const { dist, slug, query, offset, samples } of runs) {
        for (const [kind] of KINDS) {
          for (const [which, script] of scripts) {
            if (which === 'before' && kind === 'baseline') continue;
            if (which === 'floor' && !FLOOR_KINDS.includes(kind)) continue;
            const r = await measure(
              process.execPath,
              [join(ROOT, 'bench', 'edge-probe.js'), script, dist, kind, slug, query, String(offset)],
              { cwd: ROOT },
            );
            (samples[`${which}${kind}`] ??= []).push(JSON.parse(r.stdout.trim().split('\n').pop()));
          }
        }
      }
    }
    const results = runs.map(({ size, slug, query, offset, samples }) => {
      const kinds = Object.fromEntries(KINDS.map(([k]) => [k, summary(samples[k])]));
      const beforeKinds = old
        ? Object.fromEntries(KINDS.filter(([k]) => k !== 'baseline').map(([k]) => [k, summary(samples[`before${k}`])]))
        : null;
      log(
        `  edge, ${size} posts: ${KINDS.map(([k]) => `${k} ${kinds[k].cpuMs.toFixed(1)} ms CPU${beforeKinds?.[k] ? ` (before ${beforeKinds[k].cpuMs.toFixed(1)})` : ''}`).join(', ')}; worker ${(sizes.worker.bytes / 1024).toFixed(0)} KiB`,
      );
      const floorKinds = Object.fromEntries(FLOOR_KINDS.map((k) => [k, summary(samples[`floor${k}`])]));
      return {
        kinds,
        floor: floorKinds,
        before: beforeKinds && { commit: before, kinds: beforeKinds },
        sizes,
        slug,
        query,
        offset,
        wrangler: null,
      };
    });
    // The same requests on Cloudflare's own runtime; a failure there is reported, not fatal to the rest.
    if (wrangler) {
      const onWrangler = await benchWrangler({ runs, log }).catch((error) => runs.map(() => ({ error: error.message })));
      results.forEach((r, i) => (r.wrangler = onWrangler[i]));
    }
    return dists.map((d) => results[ready.indexOf(d)] ?? { skip: 'the build wrote no _folio/edge/head.json' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------- standalone ----------

async function main(sizes, reuse) {
  const dists = [];
  for (const size of sizes) {
    const corpus = await ensureCorpus(size);
    const out = join(CORPORA_DIR, `edge-dist-${size}`);
    if (!reuse || !existsSync(join(out, '_folio/edge/head.json'))) {
      rmSync(out, { recursive: true, force: true });
      console.log(`${size} posts: building ${out}`);
      await measure(
        process.execPath,
        [join(ROOT, 'bin', 'folio.js'), 'build', '--content', join(corpus, 'content'), '--out', out, '--now', NOW],
        { cwd: CORPORA_DIR },
      );
      rmSync(join(CORPORA_DIR, '.folio-cache'), { recursive: true, force: true });
    }
    dists.push({ size, dist: out });
  }
  const edges = await benchEdge({ dists });
  const results = dists.map(({ size }, i) => ({ size, edge: edges[i] }));
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  writeFileSync(join(CORPORA_DIR, 'edge-last-run.json'), JSON.stringify(results, null, 2));
  writeEdgeReport(edgeReport(results, { commit }), process.env.BENCH_REPORT ?? join(ROOT, 'BENCHMARKS.md'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(CORPORA_DIR, { recursive: true });
  const args = process.argv.slice(2);
  await main(
    (args.find((a) => !a.startsWith('--')) ?? '1000,10000')
      .split(',')
      .map(Number)
      .filter((n) => n > 0),
    args.includes('--reuse'),
  );
}
