// Summarises the V8 .cpuprofile files of one folio build (`node --cpu-prof`
// writes one per thread): CPU per kind of thread, inclusive time of named
// phases, and self time per module (npm package, folio source file or Node
// internal) and per function. Bundled code (lib/*.js) is charged to its
// TypeScript source and its source name through the bundle's source map, so
// a phase is named as the source names it, whatever name esbuild gave it.
//
//   node bench/profile.js <dir-or-file.cpuprofile>... [--top 15]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folio functions whose inclusive time the benchmark's profiles report,
 * by their name in the source and the file under build/ that declares them
 * (names repeat across files). test/bench-profile.test.ts checks that each
 * is still declared there, so a rename fails a test rather than reporting 0.
 */
export const PHASES = [
  { name: 'readFolder', file: 'content/load.ts', what: 'the content folder: stamps, and the files whose stamps changed' },
  { name: 'readShard', file: 'emit/record-shard.ts', what: 'the previous build’s records, from the cache' },
  { name: 'readDocument', file: 'content/kinds.ts', what: 'one document: front matter, Markdown, HTML' },
  { name: 'render', file: 'content/markdown.ts', what: 'Markdown to HTML (remark, rehype)' },
  { name: 'assembleSite', file: 'site.ts', what: 'the model, from every document' },
  { name: 'loadState', file: 'emit/cache.ts', what: 'the previous build’s state' },
  { name: 'digestSite', file: 'emit/incremental.ts', what: 'what changed since the previous build' },
  { name: 'recordChanges', file: 'history.ts', what: 'the change log (D61)' },
  { name: 'dispatch', file: 'core/respond.ts', what: 'every response the build asks' },
  { name: 'findPage', file: 'core/pages/routes.ts', what: 'the HTML pages' },
  { name: 'related', file: 'core/site-model.ts', what: 'a post’s related posts' },
  { name: 'keep', file: 'emit/targets.ts', what: 'the files a rebuild keeps from the previous output' },
  { name: 'wholeIndex', file: 'emit/search-index.ts', what: 'the Orama index, whole' },
  { name: 'prepareSearchIndex', file: 'emit/search-index.ts', what: 'the search index, patched or handed to its thread' },
  { name: 'searchShards', file: 'core/search/shards.ts', what: 'the functions’ search shards (D55)' },
  { name: 'edgeFiles', file: 'emit/edge.ts', what: 'the functions’ route shards and chunks (D55)' },
  { name: 'hostArtifact', file: 'emit/hosts/index.ts', what: 'the hosts’ headers, redirects and routes files' },
  { name: 'serializeState', file: 'emit/cache.ts', what: 'the state the next build starts from' },
];

const phaseKey = (name, file) => `${name} ${file}`;
const PHASE_KEYS = new Set(PHASES.map((p) => phaseKey(p.name, p.file)));

/** A script of folio's own bundle (lib/cli.js, lib/write-worker.js, …); a package's lib/ is under node_modules/. */
const bundleOf = (url) => (url.includes('/node_modules/') ? null : (/\/lib\/([^/]+\.js)$/.exec(url)?.[1] ?? null));

const maps = new Map();

/** The linked source map of a bundled file (lib/cli.js → build/*.ts), or null. */
function sourceMapOf(url) {
  if (!url.startsWith('file://')) return null;
  if (!maps.has(url)) {
    const file = fileURLToPath(url);
    let map = null;
    try {
      if (existsSync(`${file}.map`)) map = { dir: dirname(file), map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) };
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** A frame of a bundle as the source has it: its file relative to the repository (or under node_modules/) and its name, or null. */
function original(frame) {
  const m = sourceMapOf(frame.url);
  if (!m) return null;
  const entry = m.map.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry?.originalSource) return null;
  const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : resolve(m.dir, entry.originalSource);
  // A package by its path under node_modules/, wherever that is (a worktree may link another checkout's).
  const nm = source.lastIndexOf('/node_modules/');
  // Relative to the checkout that holds the bundle (lib/ sits at its top), wherever that is.
  const file = nm !== -1 ? source.slice(nm + 1) : relative(dirname(m.dir), source);
  return { file, name: entry.name };
}

/** The module a call frame belongs to: an npm package, a project file, or a V8/Node bucket. */
function moduleOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const lib = /\/(lib|build|bench)\/(.*)$/.exec(url);
  return lib ? `${lib[1]}/${lib[2]}` : url.replace(/^file:\/\//, '');
}

/** A frame's module and name as the source has them (bundled folio code through the source map), and its phase key. */
function frameOf(f) {
  const o = f.url.includes('/node_modules/') ? null : original(f);
  const module = o?.file ?? moduleOf(f.url, f.functionName);
  // esbuild renames a function whose name another module uses too (render → render2); the map keeps the source's.
  const name = o?.name || f.functionName || '(anonymous)';
  return { module, name, phase: o?.file.startsWith('build/') ? phaseKey(name, o.file.slice('build/'.length)) : null };
}

/**
 * The kind of thread a profile is of: Node names the main thread's file
 * `….<pid>.0.<n>.cpuprofile`; a worker is named by the bundle it runs most
 * (lib/render-worker.js is a "render worker").
 */
function threadOf(fileName, byBundle) {
  if (/\.\d+\.0\.\d+\.cpuprofile$/.test(fileName)) return 'main';
  const top = [...byBundle].sort((a, b) => b[1] - a[1])[0]?.[0];
  return top ? top.replace(/\.js$/, '').replace(/-/g, ' ') : 'worker';
}

/** Self and inclusive milliseconds of one thread's parsed .cpuprofile. */
export function summarise(profile, fileName = '') {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const frames = new Map(profile.nodes.map((n) => [n.id, frameOf(n.callFrame)]));
  const self = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time before sample i; charging it to sample i is
    // V8's own convention (and DevTools').
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
  const s = { threads: 1, totalMs: 0, idleMs: 0, functions: new Map(), modules: new Map(), phases: new Map() };
  const byBundle = new Map();
  for (const [id, ms] of self) {
    const { callFrame: f } = byId.get(id);
    if (f.functionName === '(idle)') {
      s.idleMs += ms;
      continue;
    }
    s.totalMs += ms;
    const frame = frames.get(id);
    const where = `${frame.module}${f.url && !frame.module.endsWith('.ts') ? `:${f.lineNumber + 1}` : ''}`;
    add(s.functions, where === frame.name ? where : `${frame.name} ${where}`, ms);
    add(s.modules, frame.module, ms);
    // Inclusive time: charge this node's samples once to every phase on its stack, and to the innermost of
    // folio's bundles on it (a writing thread's time is mostly native calls, made from lib/write-worker.js).
    const seen = new Set();
    let bundle = null;
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      bundle ??= bundleOf(byId.get(cur).callFrame.url);
      const key = frames.get(cur).phase;
      if (key && PHASE_KEYS.has(key) && !seen.has(key)) {
        seen.add(key);
        add(s.phases, key, ms);
      }
    }
    if (bundle) add(byBundle, bundle, ms);
  }
  s.thread = threadOf(basename(fileName), byBundle);
  return s;
}

/** The summaries of one build's threads, added up by kind of thread: the main thread first, then the others by CPU. */
export function byThread(summaries) {
  const kinds = new Map();
  for (const s of summaries) {
    const k = kinds.get(s.thread);
    if (!k) {
      kinds.set(s.thread, { ...s, functions: new Map(s.functions), modules: new Map(s.modules), phases: new Map(s.phases) });
      continue;
    }
    k.threads += 1;
    k.totalMs += s.totalMs;
    k.idleMs += s.idleMs;
    for (const part of ['functions', 'modules', 'phases']) for (const [key, ms] of s[part]) k[part].set(key, (k[part].get(key) ?? 0) + ms);
  }
  return [...kinds.values()].sort((a, b) => (a.thread === 'main' ? -1 : b.thread === 'main' ? 1 : b.totalMs - a.totalMs));
}

/** Every profile in the given files and folders, summarised. */
export function summariseFiles(paths) {
  const files = paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith('.cpuprofile'))
          .sort()
          .map((f) => join(p, f))
      : [p],
  );
  return files.map((f) => summarise(JSON.parse(readFileSync(f, 'utf8')), f));
}

/** The largest entries of a map summed over the threads, each with the thread it mostly ran on. */
function topOver(threads, part, top) {
  const total = new Map();
  const where = new Map();
  for (const t of threads)
    for (const [key, ms] of t[part]) {
      total.set(key, (total.get(key) ?? 0) + ms);
      if (!where.has(key) || where.get(key)[1] < ms) where.set(key, [t.thread, ms]);
    }
  return [...total]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, ms]) => ({ key, ms, thread: where.get(key)[0] }));
}

/**
 * One build's profiles as Markdown tables: threads, phases, modules and
 * functions. V8 samples a thread on the clock, so its busy time counts the
 * stretches it waits for a core or in a system call that blocks, not only
 * its CPU: with more threads than cores, the threads add up to more than the
 * process's CPU time, which `usage` (from its rusage) gives beside them.
 */
export function toMarkdown(threads, top = 15, usage = null) {
  const all = threads.reduce((a, t) => a + t.totalMs, 0);
  const ms = (x) => Math.round(x).toLocaleString('en');
  const pct = (x) => `${((100 * x) / all).toFixed(1)} %`;
  const whole =
    usage?.cpuMs != null ? `; the process took ${ms(usage.cpuMs)} ms of CPU (user + system) in ${ms(usage.ms)} ms of wall time` : '';
  const lines = [
    `Busy time in the profiles: ${ms(all)} ms over ${threads.reduce((a, t) => a + t.threads, 0)} threads, sampled on the clock: a thread is busy while it runs, waits for a core or waits in a system call, and idle (left out) only while its event loop waits${whole}.`,
    '',
    '| Thread | threads | busy ms | share | idle ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...threads.map((t) => `| ${t.thread} | ${t.threads} | ${ms(t.totalMs)} | ${pct(t.totalMs)} | ${ms(t.idleMs)} |`),
    '',
    '| Phase (inclusive) | what | thread: ms | share |',
    '| --- | --- | --- | ---: |',
  ];
  for (const p of PHASES) {
    const key = phaseKey(p.name, p.file);
    const on = threads.filter((t) => (t.phases.get(key) ?? 0) >= 0.5);
    if (!on.length) continue;
    const sum = on.reduce((a, t) => a + t.phases.get(key), 0);
    const where = on.map((t) => `${t.thread} ${ms(t.phases.get(key))}`).join(', ');
    lines.push(`| \`${p.name}\` (${p.file}) | ${p.what} | ${where} | ${pct(sum)} |`);
  }
  lines.push('', '| Module (self time) | mostly on | ms | share |', '| --- | --- | ---: | ---: |');
  for (const m of topOver(threads, 'modules', top)) lines.push(`| ${m.key} | ${m.thread} | ${ms(m.ms)} | ${pct(m.ms)} |`);
  lines.push('', '| Function (self time) | mostly on | ms | share |', '| --- | --- | ---: | ---: |');
  for (const f of topOver(threads, 'functions', top)) lines.push(`| \`${f.key}\` | ${f.thread} | ${ms(f.ms)} | ${pct(f.ms)} |`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--top');
  const top = at === -1 ? 15 : Number(args[at + 1]);
  const paths = args.filter((a, i) => !a.startsWith('--') && (at === -1 || i !== at + 1));
  if (!paths.length) {
    console.error('usage: node bench/profile.js <dir-or-file.cpuprofile>... [--top N]');
    process.exit(2);
  }
  console.log(toMarkdown(byThread(summariseFiles(paths)), top));
}
