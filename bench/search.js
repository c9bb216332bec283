// Search figures: the size of folio's
// serialized index against the raw text it covers, the cold start (a fresh
// process: load the search code, open the index, answer the first query) and
// p50/p99 query latency over a bounded, deterministic set of queries.
//
// folio's own code is measured, bundled the way the hosts bundle a function:
// Cloudflare Pages (wrangler), Netlify and Vercel each run esbuild over the
// function with its dependencies into one script, so Node here loads one file
// too, not Orama's ESM files one by one from node_modules. Two bundles are
// written to bench/.corpora/:
//
// - the search loader, `openSearch(read)` from build/runtime/search.ts: the
//   chunk the function imports on its first search (the target figure);
// - the whole function, `createHandler(read)` from build/runtime/handler.ts,
//   for the full path of a cold function's first search request: import,
//   site model and manifest, then the search chunk and the index (reported
//   beside the target, not as it).
//
// Both read dist/ through folio serve's reader, `fileReader` from
// build/serve-files.ts (bundled on its own and imported before the clock),
// as the functions read it under `folio serve`. Each measurement runs in a
// child process:
//
//   node bench/search.js --probe <bundle> <export> reader|json|handler <dist> cold|latency <reader bundle>
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CORPORA_DIR, prng, TAGS, WORDS } from './corpus.js';
import { measure, median, percentile } from './measure.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const INDEX_PATH = '_folio/search-index.json';
const COLD_RUNS = 5;
const LATENCY_ROUNDS = 5;
const LIMIT = 10;

/**
 * Where folio's search loader lives, first match wins: the functions' search
 * chunk `openSearch(read)` (build/runtime/search.ts, which the handler imports
 * on the first search), else the handler's own, else the core's
 * `openSearchIndex(json)`.
 */
const LOADER_CANDIDATES = [
  { entry: 'build/runtime/search.ts', name: 'openSearch', takes: 'reader' },
  { entry: 'build/runtime/handler.ts', name: 'openSearch', takes: 'reader' },
  { entry: 'build/core/search/index.ts', name: 'openSearchIndex', takes: 'json' },
];

/** The whole function, as the hosts run it. */
const HANDLER = { entry: 'build/runtime/handler.ts', name: 'createHandler', takes: 'handler' };

/**
 * A bounded, deterministic query set: single words, pairs, a tag, a word with
 * one typo (D12 promises one typo is tolerated), and words that match nothing.
 */
export function queries(n = 200) {
  const rand = prng(0x5ea4c4);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const typo = (w) => {
    const i = 1 + Math.floor(rand() * (w.length - 2));
    return w.length > 4 ? w.slice(0, i) + w.slice(i + 1) : w;
  };
  const kinds = [
    () => pick(WORDS),
    () => `${pick(WORDS)} ${pick(WORDS)}`,
    () => pick(TAGS).replace(/-/g, ' '),
    () => typo(pick(WORDS.filter((w) => w.length > 5))),
    () => `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`,
    () => 'zyxwvut',
  ];
  return Array.from({ length: n }, (_, i) => kinds[i % kinds.length]());
}

/** The kind of queries()[i], for latency by kind. */
export const QUERY_KINDS = ['one word', 'two words', 'a tag', 'one typo', 'three words', 'no match'];

/** Bytes of the text the index covers: titles, summaries and bodies of posts, projects and services. */
export function rawTextBytes(site) {
  let bytes = 0;
  const add = (...parts) => {
    for (const p of parts) if (typeof p === 'string') bytes += Buffer.byteLength(p);
  };
  for (const p of site.posts ?? []) add(p.title, p.summary, p.text ?? p.content_markdown, ...(p.tags ?? []));
  for (const p of site.projects ?? []) add(p.title, p.summary, p.text ?? p.body_markdown, ...(p.tags ?? []));
  for (const s of site.services ?? []) add(s.title, s.summary, s.text ?? s.body_markdown);
  return bytes;
}

/**
 * Bundles `entry` as a host bundles a function: its dependencies included,
 * one ESM file, not minified (wrangler's default). An import() inside stays
 * lazy: esbuild keeps the imported module in the same file and runs it only
 * when import() is called.
 */
function bundle(entry, name) {
  const out = join(CORPORA_DIR, name);
  const script = `import('esbuild').then((e) => e.build({ entryPoints: [${JSON.stringify(join(ROOT, entry))}], outfile: ${JSON.stringify(out)}, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' }))`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bundling ${entry} failed: ${r.stderr.trim().split('\n')[0]}`);
  return out;
}

/** Bundles folio's search loader; null when there is none yet. */
function bundleLoader() {
  const found = LOADER_CANDIDATES.find(
    (c) =>
      existsSync(join(ROOT, c.entry)) &&
      new RegExp(`export (async )?function ${c.name}\\b`).test(readFileSync(join(ROOT, c.entry), 'utf8')),
  );
  if (!found) return null;
  return { ...found, out: bundle(found.entry, 'search-loader.mjs') };
}

/** Bundles folio serve's file reader, which the probes read dist/ with. */
function bundleReader() {
  return bundle('build/serve-files.ts', 'search-reader.mjs');
}

/** Bundles the whole function; null when there is none yet. */
function bundleHandler() {
  if (!existsSync(join(ROOT, HANDLER.entry)) || !/export function createHandler\b/.test(readFileSync(join(ROOT, HANDLER.entry), 'utf8')))
    return null;
  return { ...HANDLER, out: bundle(HANDLER.entry, 'search-function.mjs') };
}

/**
 * Search figures for a built dist, or { skip } with the reason. `work` is a
 * scratch directory; `log` reports progress.
 */
export async function benchSearch({ dist, log = console.log }) {
  const index = join(dist, INDEX_PATH);
  if (!existsSync(index)) return { skip: `folio wrote no ${INDEX_PATH} (the search index is not built yet)` };
  const loader = bundleLoader();
  if (!loader) return { skip: `no search loader found (looked for ${LOADER_CANDIDATES.map((c) => `${c.name} in ${c.entry}`).join(', ')})` };
  const handler = bundleHandler();
  const reader = bundleReader();
  const site = JSON.parse(readFileSync(join(dist, '_folio', 'site.json'), 'utf8'));
  const indexBytes = statSync(index).size;
  const textBytes = rawTextBytes(site);
  const probe = async (code, mode) => {
    const r = await measure(
      process.execPath,
      [fileURLToPath(import.meta.url), '--probe', code.out, code.name, code.takes, dist, mode, reader],
      {
        cwd: ROOT,
      },
    );
    return { ...JSON.parse(r.stdout.trim().split('\n').pop()), processMs: r.ms, processCpuMs: r.cpuMs, peakRss: r.peakRss };
  };
  // Interleaved, so a burst of load on a shared machine falls on both alike.
  const cold = [];
  const fn = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    cold.push(await probe(loader, 'cold'));
    if (handler) fn.push(await probe(handler, 'cold'));
  }
  const latency = await probe(loader, 'latency');
  const mid = (runs, key) => median(runs.map((c) => c[key]));
  const result = {
    loader: `${loader.name} in ${loader.entry}`,
    indexBytes,
    textBytes,
    coldMs: mid(cold, 'coldMs'),
    coldParts: { importMs: mid(cold, 'importMs'), openMs: mid(cold, 'openMs'), firstQueryMs: mid(cold, 'firstQueryMs') },
    coldCpuMs: mid(cold, 'cpuMs'),
    coldProcessMs: mid(cold, 'processMs'),
    coldRuns: cold.map((c) => c.coldMs),
    // The whole function's first request, for transparency; not the target figure.
    functionColdMs: handler ? mid(fn, 'coldMs') : null,
    functionColdParts: handler ? { importMs: mid(fn, 'importMs'), firstRequestMs: mid(fn, 'firstRequestMs') } : null,
    functionColdCpuMs: handler ? mid(fn, 'cpuMs') : null,
    p50: latency.p50,
    p99: latency.p99,
    kinds: latency.kinds,
    queries: latency.queries,
    samples: latency.samples,
    hitRate: latency.hitRate,
    peakRss: latency.peakRss,
    note:
      `Search: folio's loader \`${loader.name}\` from \`${loader.entry}\`, the chunk the function imports on its first search, bundled with its dependencies into one file as the hosts' build tools bundle a function (esbuild, ESM, not minified: wrangler's default); index = \`dist/${INDEX_PATH}\`; raw text = the UTF-8 bytes of every post's, project's and service's title, summary, body text and tags (from \`_folio/site.json\`). ` +
      `Cold start = import that bundle + read and open the index + the first query, timed inside a fresh \`node\` process (the process's whole life, Node's own start-up included, in brackets); median of ${COLD_RUNS}, with the CPU time of the same span as \`coldCpuMs\` (steadier than wall time on a shared machine). ` +
      (handler
        ? `The whole function's cold path (import the bundled \`createHandler\` from \`${HANDLER.entry}\`, then its first \`GET /api/{version}/search?q=…\`: site model, manifest, search chunk, index, query) is measured the same way and reported beside it, not as the target. `
        : '') +
      `p50/p99 over ${LATENCY_ROUNDS} rounds of ${queries().length} deterministic queries (words, pairs, tags, one-typo words, a miss), limit ${LIMIT}, after a warm-up.` +
      ` The probes read dist/ through folio serve's own reader (\`fileReader\` from build/serve-files.ts, bundled apart and imported before the clock), as the functions read it under \`folio serve\`.`,
  };
  log(
    `  search: index ${(indexBytes / 2 ** 20).toFixed(1)} MiB (${(indexBytes / textBytes).toFixed(2)}× text), cold ${result.coldMs.toFixed(1)} ms${handler ? ` (whole function ${result.functionColdMs.toFixed(1)} ms)` : ''}, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`,
  );
  return result;
}

/** Milliseconds of CPU (user + system) this process spent since `from`. */
function cpuSince(from) {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
}

async function runProbe(bundle, name, takes, dist, mode, readerBundle) {
  const root = resolve(dist);
  const read = (await import(pathToFileURL(readerBundle).href)).fileReader(root);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const mod = await import(pathToFileURL(bundle).href);
  const t1 = performance.now();
  const importCpuMs = cpuSince(cpu0);
  const open = mod[name];
  if (typeof open !== 'function') throw new Error(`${bundle} exports no ${name}()`);
  const list = queries();
  if (takes === 'handler') {
    const site = JSON.parse(await readFile(join(root, '_folio', 'site.json'), 'utf8'));
    const version = Object.keys(site.versions).find((v) => site.versions[v].status === 'current') ?? Object.keys(site.versions)[0];
    const a = performance.now();
    const c = process.cpuUsage();
    const handle = open(read);
    const reply = await handle({
      method: 'GET',
      path: `/api/${version}/search`,
      search: `q=${encodeURIComponent(list[0])}&limit=${LIMIT}`,
      headers: { accept: 'application/json' },
      body: null,
    });
    const b = performance.now();
    const cpuMs = importCpuMs + cpuSince(c);
    if (reply.status !== 200)
      throw new Error(`GET /api/${version}/search answered ${reply.status}: ${new TextDecoder().decode(reply.body).slice(0, 200)}`);
    const hits = JSON.parse(new TextDecoder().decode(reply.body)).data.length;
    // Reading site.json above (to find the API version) is the probe's own work, left out of the figures.
    console.log(JSON.stringify({ coldMs: t1 - t0 + (b - a), importMs: t1 - t0, firstRequestMs: b - a, cpuMs, hits }));
    return;
  }
  const engine = await (takes === 'reader' ? open(read) : open(await readFile(join(root, INDEX_PATH), 'utf8')));
  if (typeof engine?.search !== 'function') throw new Error(`${name} did not return an engine with search(query, limit)`);
  const t2 = performance.now();
  const first = await engine.search(list[0], LIMIT);
  const t3 = performance.now();
  if (mode === 'cold') {
    console.log(
      JSON.stringify({
        coldMs: t3 - t0,
        importMs: t1 - t0,
        openMs: t2 - t1,
        firstQueryMs: t3 - t2,
        cpuMs: cpuSince(cpu0),
        hits: first.hits.length,
      }),
    );
    return;
  }
  for (const q of list.slice(0, 50)) await engine.search(q, LIMIT);
  const times = [];
  const byKind = QUERY_KINDS.map(() => []);
  let hits = 0;
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (const [i, q] of list.entries()) {
      const a = performance.now();
      const r = await engine.search(q, LIMIT);
      const ms = performance.now() - a;
      times.push(ms);
      byKind[i % QUERY_KINDS.length].push(ms);
      if (r.hits.length) hits++;
    }
  }
  const kinds = Object.fromEntries(QUERY_KINDS.map((k, i) => [k, { p50: percentile(byKind[i], 50), p99: percentile(byKind[i], 99) }]));
  console.log(
    JSON.stringify({
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      kinds,
      queries: list.length,
      samples: times.length,
      hitRate: hits / times.length,
    }),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--probe') {
  const [bundle, name, takes, dist, mode, reader] = process.argv.slice(3);
  await runProbe(bundle, name, takes, dist, mode, reader);
}
