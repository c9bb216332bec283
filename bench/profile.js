// Summarises a V8 .cpuprofile (from `node --cpu-prof`): where the time goes,
// as self time per function and per module (npm package, folio source file
// or Node internal), and inclusive time for named functions ("phases").
//
//   node bench/profile.js <file.cpuprofile> [--top 25] [--phases build,render,respond]
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folio functions whose inclusive time the benchmark's profile reports. */
export const PHASES = [
  'build',
  'loadContent',
  'buildSite',
  'parseFrontMatter',
  'render',
  'respond',
  'findPage',
  'related',
  'buildSearchIndex',
];

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

/** The original source file of a frame in a bundle, relative to the repository. */
function originalFile(frame) {
  const m = sourceMapOf(frame.url);
  if (!m) return null;
  const entry = m.map.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry?.originalSource) return null;
  const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : resolve(m.dir, entry.originalSource);
  // A package by its path under node_modules/, wherever that is (a worktree may link another checkout's).
  const nm = source.lastIndexOf('/node_modules/');
  if (nm !== -1) return source.slice(nm + 1);
  // Relative to the checkout that holds the bundle (lib/ sits at its top), wherever that is.
  return relative(dirname(m.dir), source);
}

/** The module a call frame belongs to: an npm package, a project file, or a V8/Node bucket. */
export function moduleOf(url, functionName) {
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

/** Self and inclusive milliseconds from a parsed .cpuprofile. */
export function summarise(profile, { phases = [] } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time before sample i; charging it to sample i is
    // V8's own convention (and DevTools').
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fnSelf = new Map();
  const modSelf = new Map();
  const phaseMs = new Map(phases.map((p) => [p, 0]));
  for (const [id, ms] of self) {
    const { callFrame: f } = byId.get(id);
    // Bundled folio code is charged to its TypeScript source file.
    const mod = (f.url.includes('/node_modules/') ? null : originalFile(f)) ?? moduleOf(f.url, f.functionName);
    const key = `${f.functionName || '(anonymous)'} ${mod}${f.url && !mod.endsWith('.ts') ? `:${f.lineNumber + 1}` : ''}`;
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + ms);
    modSelf.set(mod, (modSelf.get(mod) ?? 0) + ms);
    if (phases.length) {
      // Inclusive time: charge this node's samples once to every phase on its stack.
      const seen = new Set();
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
        const name = byId.get(cur).callFrame.functionName;
        if (phaseMs.has(name) && !seen.has(name)) {
          seen.add(name);
          phaseMs.set(name, phaseMs.get(name) + ms);
        }
      }
    }
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { totalMs: total, functions: sorted(fnSelf), modules: sorted(modSelf), phases: [...phaseMs] };
}

/** The summary as Markdown tables. */
export function toMarkdown(summary, top = 20) {
  const pct = (ms) => `${((100 * ms) / summary.totalMs).toFixed(1)} %`;
  const lines = [`Profiled CPU time: ${Math.round(summary.totalMs)} ms.`, ''];
  if (summary.phases.length) {
    lines.push('| Phase (inclusive) | ms | share |', '| --- | ---: | ---: |');
    for (const [name, ms] of summary.phases) lines.push(`| \`${name}\` | ${Math.round(ms)} | ${pct(ms)} |`);
    lines.push('');
  }
  lines.push('| Module (self time) | ms | share |', '| --- | ---: | ---: |');
  for (const [name, ms] of summary.modules.slice(0, top)) lines.push(`| ${name} | ${Math.round(ms)} | ${pct(ms)} |`);
  lines.push('', '| Function (self time) | ms | share |', '| --- | ---: | ---: |');
  for (const [name, ms] of summary.functions.slice(0, top)) lines.push(`| \`${name}\` | ${Math.round(ms)} | ${pct(ms)} |`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a) && !a.includes(','));
  const opt = (name) => {
    const i = args.indexOf(`--${name}`);
    return i === -1 ? undefined : args[i + 1];
  };
  if (!file) {
    console.error('usage: node bench/profile.js <file.cpuprofile> [--top N] [--phases a,b,c]');
    process.exit(2);
  }
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')), { phases: (opt('phases') ?? '').split(',').filter(Boolean) });
  console.log(toMarkdown(summary, Number(opt('top') ?? 20)));
}
