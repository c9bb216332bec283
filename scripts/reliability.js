// `npm run reliability`: proves under load and bad input that folio
// keeps working and loses nothing, and writes the figures to RELIABILITY.md.
//
// 1. Load: builds the sample into a temp dir, starts `folio serve` on
//    127.0.0.1 as its own process, and runs autocannon against a mix of
//    precomputed JSON, Markdown twins, search and MCP tools/list: 30 s at 100
//    connections after a warm-up, sampling the server's RSS every second;
//    then each kind alone for a few seconds.
// 2. Fuzzing: runs the fuzz and fault tests with larger bounded counts
//    (FOLIO_FUZZ_SCALE) and collects what each tried (FOLIO_FUZZ_REPORT).
//
// Environment:
//   RELIABILITY_SECONDS=30      duration of the mixed load run
//   RELIABILITY_CONNECTIONS=100 concurrent connections
//   RELIABILITY_KIND_SECONDS=5  duration of each single-kind run (0 skips them)
//   FOLIO_FUZZ_SCALE=10         how many times the npm-test counts the fuzzers run
//   RELIABILITY_SKIP=a,b        skip parts: load, fuzz, cloudflare
//   RELIABILITY_REPORT=path     where to write (default RELIABILITY.md; "-" prints only)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort } from './ports.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const env = process.env;
const SECONDS = Number(env.RELIABILITY_SECONDS ?? 30);
const CONNECTIONS = Number(env.RELIABILITY_CONNECTIONS ?? 100);
const KIND_SECONDS = Number(env.RELIABILITY_KIND_SECONDS ?? 5);
const SCALE = Number(env.FOLIO_FUZZ_SCALE ?? 10);
const SKIP = new Set(
  (env.RELIABILITY_SKIP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const REPORT = env.RELIABILITY_REPORT ?? join(ROOT, 'RELIABILITY.md');
const NOW = '2026-11-22';
const MiB = 1024 * 1024;

const started = performance.now();
const log = (...a) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s]`, ...a);
const work = mkdtempSync(join(tmpdir(), 'folio-reliability-'));

function sh(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: ROOT });
  return r.status === 0 ? r.stdout.trim() : null;
}

function machine() {
  const os =
    /PRETTY_NAME="?([^"\n]+)"?/.exec(existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '')?.[1] ?? process.platform;
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    ramGiB: totalmem() / 2 ** 30,
    os: `${os} (kernel ${release()})`,
    node: process.version,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(', '),
    commit: sh('git', ['rev-parse', '--short', 'HEAD']) ?? 'unknown',
    dirty: (sh('git', ['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
  };
}

/** Resident memory of a process in bytes (Linux /proc, else ps). */
function rss(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux
  }
  const out = sh('ps', ['-o', 'rss=', '-p', String(pid)]);
  return out ? Number(out) * 1024 : NaN;
}

// ---------- load ----------

const SEARCHES = ['ssh', 'deliverabilty', 'graceful shutdown', 'remote cache', 'vat', 'systemd socket'];

function requestMix(slugs) {
  const mcp = (id, method, params) => ({
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }),
  });
  return {
    'static JSON': [
      { path: '/api/v1/posts' },
      { path: '/api/v1/profile' },
      { path: `/api/v1/posts/${slugs[0]}` },
      { path: '/api/v1/projects?status=live' },
      { path: '/api/v1/posts?limit=5&offset=3' },
    ],
    twins: [
      { path: '/blog.md' },
      { path: `/blog/${slugs[1]}.md` },
      { path: '/', headers: { accept: 'text/markdown' } },
      { path: `/blog/${slugs[2]}`, headers: { accept: 'text/markdown, text/html;q=0.5' } },
    ],
    search: SEARCHES.map((q) => ({ path: `/api/v1/search?q=${encodeURIComponent(q)}` })),
    'MCP tools/list': [mcp(1, 'tools/list'), mcp(2, 'tools/list')],
  };
}

async function cannon(url, requests, seconds) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests, timeout: 10 });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    status: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
    mbPerSec: result.throughput.average / MiB,
  };
}

async function load() {
  const out = join(work, 'dist');
  log('building the sample site');
  const built = spawnSync(
    process.execPath,
    [join(ROOT, 'bin/folio.js'), 'build', '--content', join(ROOT, 'content'), '--out', out, '--now', NOW],
    { encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(`folio build failed:\n${built.stderr}`);
  const site = JSON.parse(readFileSync(join(out, '_folio/site.json'), 'utf8'));
  const slugs = site.posts.map((p) => p.slug);
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [join(ROOT, 'bin/folio.js'), 'serve', '--dir', out, '--port', String(port), '--host', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let serverLog = '';
  server.stdout.on('data', (c) => (serverLog = (serverLog + c).slice(-20_000)));
  server.stderr.on('data', (c) => (serverLog = (serverLog + c).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`${url}/api/v1`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 100 || server.exitCode !== null) throw new Error(`folio serve did not start:\n${serverLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const mix = requestMix(slugs);
    const all = Object.values(mix).flat();
    // Every request of the mix answers 200 before it is measured.
    for (const r of all) {
      const res = await fetch(`${url}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
      if (res.status !== 200) throw new Error(`${r.method ?? 'GET'} ${r.path} answered ${res.status} before the load run`);
      await res.arrayBuffer();
    }
    const rssStart = rss(server.pid);
    const sampled = async (requests, seconds) => {
      const samples = [];
      const timer = setInterval(() => samples.push(rss(server.pid)), 1000);
      const result = await cannon(url, requests, seconds);
      clearInterval(timer);
      samples.push(rss(server.pid));
      return { result, samples };
    };
    log(`warm-up: 10 s at ${CONNECTIONS} connections`);
    await cannon(url, all, 10);
    const rssWarm = rss(server.pid);
    log(`mixed load: ${SECONDS} s at ${CONNECTIONS} connections over ${all.length} requests`);
    const first = await sampled(all, SECONDS);
    const mixed = first.result;
    const kinds = {};
    if (KIND_SECONDS > 0) {
      for (const [kind, requests] of Object.entries(mix)) {
        log(`${kind} alone: ${KIND_SECONDS} s`);
        kinds[kind] = await cannon(url, requests, KIND_SECONDS);
      }
    }
    const rssAfterKinds = rss(server.pid);
    const again = Math.max(5, Math.round(SECONDS / 2));
    log(`mixed load again: ${again} s, to see whether memory keeps growing`);
    const second = await sampled(all, again);
    const alive = await fetch(`${url}/api/v1`).then(
      (r) => r.status,
      () => 0,
    );
    const max = (xs) => Math.max(...xs);
    const memory = {
      start: rssStart,
      warm: rssWarm,
      firstMax: max(first.samples),
      firstEnd: first.samples.at(-1),
      afterKinds: rssAfterKinds,
      secondMax: max(second.samples),
      end: second.samples.at(-1),
      again,
      secondRun: second.result,
    };
    // A heap grows to its working size under load and then holds; a leak keeps
    // growing. Stable: more of the same load does not lift the peak by more than 10%.
    memory.stable = memory.secondMax <= memory.firstMax * 1.1;
    const serverErrors = (serverLog.match(/failed:/g) ?? []).length;
    return { mixed, kinds, memory, alive, serverErrors, requests: all.length, files: site.posts.length };
  } finally {
    server.kill('SIGTERM');
  }
}

// ---------- fuzzing ----------

function fuzz() {
  const figuresFile = join(work, 'fuzz.jsonl');
  const files = [
    'test/fuzz-requests.test.ts',
    'test/fuzz-mcp.test.ts',
    'test/content-fuzz.test.ts',
    'test/faults.test.ts',
    'test/faults-search.test.ts',
  ];
  if (!SKIP.has('cloudflare')) files.push('test/fuzz-cloudflare.test.ts');
  log(`fuzz and fault tests at ${SCALE}× the npm test counts: ${files.join(' ')}`);
  const json = join(work, 'vitest.json');
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      ...files,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${json}`,
      '--testTimeout=900000',
      '--hookTimeout=300000',
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...env, FOLIO_FUZZ_SCALE: String(SCALE), FOLIO_FUZZ_REPORT: figuresFile, NO_COLOR: '1' },
      maxBuffer: 256 * MiB,
    },
  );
  // The run's own log, with any counterexample and its seed.
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  const figures = existsSync(figuresFile)
    ? readFileSync(figuresFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  let tests = { passed: 0, failed: 0, skipped: 0, failures: [] };
  if (existsSync(json)) {
    const report = JSON.parse(readFileSync(json, 'utf8'));
    tests = {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + (report.numTodoTests ?? 0),
      failures: report.testResults.flatMap((f) =>
        f.assertionResults
          .filter((a) => a.status === 'failed')
          .map(
            (a) =>
              `${f.name.replace(`${ROOT}/`, '')} › ${a.fullName}: ${(a.failureMessages[0] ?? '').split('\n').slice(0, 4).join(' ').slice(0, 600)}`,
          ),
      ),
    };
  }
  if (run.status !== 0 && tests.failed === 0)
    tests.failures.push(`vitest exited ${run.status}: ${(run.stderr || run.stdout).slice(-2000)}`);
  return { figures, tests, files };
}

// ---------- the report ----------

const ms = (x) => `${Math.round(x)} ms`;
const mib = (x) => `${(x / MiB).toFixed(1)} MiB`;

function loadTable(rows) {
  const lines = [
    '| Requests | Total | Req/s (mean) | p50 | p90 | p99 | Max | Errors | Timeouts | Non-2xx | MiB/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const [name, r] of rows)
    lines.push(
      `| ${name} | ${r.requests.toLocaleString('en')} | ${Math.round(r.rps).toLocaleString('en')} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.errors} | ${r.timeouts} | ${r.non2xx} | ${r.mbPerSec.toFixed(1)} |`,
    );
  return lines.join('\n');
}

function fuzzTable(figures) {
  const lines = [
    '| Fuzzer | Target | Inputs tried | Requests sent | Refused by the HTTP parser | Excluded (runtime limits) | Failures | Seed | Time |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const f of figures) {
    const excluded = Object.values(f.excluded ?? {}).reduce((a, b) => a + b, 0);
    lines.push(
      `| ${f.name} | ${f.target} | ${f.inputs.toLocaleString('en')} | ${f.requests ? f.requests.toLocaleString('en') : '—'} | ${f.refused ?? '—'} | ${excluded || '—'} | ${f.failures} | ${f.seed} | ${f.ms ? `${(f.ms / 1000).toFixed(1)} s` : '—'} |`,
    );
  }
  const totals = figures.reduce(
    (t, f) => ({ inputs: t.inputs + f.inputs, requests: t.requests + (f.requests ?? 0), failures: t.failures + f.failures }),
    { inputs: 0, requests: 0, failures: 0 },
  );
  lines.push(
    `| **Total** | | **${totals.inputs.toLocaleString('en')}** | **${totals.requests.toLocaleString('en')}** | | | **${totals.failures}** | | |`,
  );
  return { table: lines.join('\n'), totals };
}

function report({ m, loadResult, fuzzResult, seconds }) {
  const out = [];
  out.push('# Reliability', '');
  out.push('Generated by `npm run reliability` (scripts/reliability.js); do not edit by hand, run it again. It shows that folio keeps');
  out.push('answering and loses nothing when crawlers, agents and hurried authors throw load and bad input at it.', '');
  out.push('## Machine and run', '');
  out.push(`- Date: ${new Date().toISOString()}`);
  out.push(`- Commit: ${m.commit}${m.dirty ? ' (with uncommitted changes in the worktree)' : ''}`);
  out.push(`- Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB.toFixed(0)} GiB RAM; ${m.os}; Node ${m.node}`);
  out.push(
    `- Load average when the run started: ${m.load} (a shared machine: other work ran beside this one, so read the latencies as an upper bound)`,
  );
  out.push(
    `- Command: \`npm run reliability\` (RELIABILITY_SECONDS=${SECONDS}, RELIABILITY_CONNECTIONS=${CONNECTIONS}, RELIABILITY_KIND_SECONDS=${KIND_SECONDS}, FOLIO_FUZZ_SCALE=${SCALE}); ${Math.round(seconds)} s in all`,
    '',
  );
  if (loadResult) {
    const { mixed, kinds, memory } = loadResult;
    const clean =
      mixed.errors === 0 &&
      mixed.timeouts === 0 &&
      mixed.non2xx === 0 &&
      Object.values(kinds).every((k) => k.errors === 0 && k.timeouts === 0 && k.non2xx === 0);
    out.push('## Load', '');
    out.push(
      `autocannon against \`folio serve\` on 127.0.0.1 (its own process) over the sample site built with \`--now ${NOW}\`: ${SECONDS} s at ${CONNECTIONS} connections after a 10 s warm-up, cycling through ${loadResult.requests} requests of four kinds: precomputed JSON (lists, a post, a filter, a run-time page of the list), Markdown twins (\`.md\` addresses and \`Accept: text/markdown\` on pages), search (six queries, one with a typo) and MCP \`tools/list\` by POST. Then each kind alone for ${KIND_SECONDS} s.`,
      '',
    );
    out.push(loadTable([['**Mixed**', mixed], ...Object.entries(kinds)]), '');
    out.push(
      `- Result: ${clean ? '**zero errors, zero timeouts, zero non-2xx answers**' : '**FAILED: errors, timeouts or non-2xx answers above**'}; status codes of the mixed run: ${Object.entries(
        mixed.status,
      )
        .map(([c, n]) => `${c} × ${n.toLocaleString('en')}`)
        .join(', ')}.`,
    );
    out.push(`- After the runs \`GET /api/v1\` answered ${loadResult.alive}; the server logged ${loadResult.serverErrors} failures.`);
    out.push(
      `- Memory (resident set of the server process, sampled every second): ${mib(memory.start)} at start, ${mib(memory.warm)} after a 10 s warm-up; during the mixed run at most ${mib(memory.firstMax)}, ${mib(memory.firstEnd)} at its end; ${mib(memory.afterKinds)} after the single-kind runs; then the mix again for ${memory.again} s (${Math.round(memory.secondRun.rps).toLocaleString('en')} req/s, p99 ${ms(memory.secondRun.p99)}, ${memory.secondRun.errors + memory.secondRun.timeouts + memory.secondRun.non2xx} errors, timeouts or non-2xx): at most ${mib(memory.secondMax)}, ${mib(memory.end)} at its end. **${memory.stable ? 'Stable' : 'NOT stable'}**: the heap grows to its working size and holds (stable means the second mixed run's peak is within 10% of the first's).`,
      '',
    );
  }
  if (fuzzResult) {
    const { table, totals } = fuzzTable(fuzzResult.figures);
    out.push('## Fuzzing and faults', '');
    out.push(
      `The fuzz and fault tests of \`npm test\`, run here at ${SCALE}× their bounded counts and time budgets (\`FOLIO_FUZZ_SCALE=${SCALE}\`): ${fuzzResult.files.map((f) => `\`${f}\``).join(', ')}. Each fuzzer is a fast-check property with a printed seed; \`FOLIO_FUZZ_SEED=<seed>\` replays a run.`,
      '',
    );
    out.push(table, '');
    out.push(
      `- ${totals.inputs.toLocaleString('en')} inputs tried, ${totals.requests.toLocaleString('en')} HTTP requests sent, **${totals.failures} failures**.`,
    );
    out.push(
      `- Tests: ${fuzzResult.tests.passed} passed, ${fuzzResult.tests.failed} failed, ${fuzzResult.tests.skipped} skipped (a check only a non-root user can make, a test that needs mount(2) where it is not allowed, or an opt-in target) or expected to fail (an \`it.fails\`).`,
    );
    for (const f of fuzzResult.tests.failures) out.push(`  - FAILED: ${f}`);
    for (const f of fuzzResult.figures) {
      if (f.note) out.push(`- ${f.name}: ${f.note}.`);
      for (const [reason, n] of Object.entries(f.excluded ?? {})) out.push(`- ${f.name}: ${n} inputs not sent: ${reason}.`);
    }
    out.push('');
  }
  out.push('## What is checked', '');
  out.push(
    '- **Requests** (`test/fuzz-requests.test.ts`, `test/fuzz-cloudflare.test.ts`, `test/helpers/fuzz.ts`): random methods, paths (`../`, `%2e%2e%2f`, `%2F`, backslashes, double encoding, `%00`, overlong UTF-8, raw bytes, up to 16 KiB, Unicode), queries (repeated keys, `__proto__` and friends, huge numbers) and bodies, sent byte for byte. No 5xx; every failure under `/api/` and at `/mcp` is the JSON envelope with CORS (on `folio serve` every failure but the 404 page); no stack trace; no off-site redirect; canary files next to `dist/` and `/etc/passwd` never appear; the server keeps answering. Requests that are not HTTP (a non-ASCII target, a head over 16 KiB) are refused by the parser before folio runs and are counted as refused.',
  );
  out.push(
    '- **MCP** (`test/fuzz-mcp.test.ts`): malformed JSON, bytes that are not UTF-8, wrong types, batches, huge ids, nesting 100,000 deep, random protocol headers: a JSON-RPC response on 200, a 202, or the envelope on 400/405/413/415; never a 5xx or -32603; bodies over 1 MiB answer 413, wrong media types 415.',
  );
  out.push(
    '- **Content** (`test/content-fuzz.test.ts`): bad YAML, wrong types, missing, misspelt and unknown fields, duplicate slugs, broken links, binary, non-UTF-8, empty, unclosed and huge files, deep nesting, CRLF: every problem as `path:line:column` with a hint; through the CLI exit 1, no stack trace, the previous `dist/` byte-identical.',
  );
  out.push(
    '- **Faults** (`test/faults.test.ts`, `test/faults-search.test.ts`): builds killed with SIGKILL at random points (the previous `dist/` byte-identical, the next build succeeds and sweeps), a kill between the two renames of the swap, an output on a read-only and on a full file system (tmpfs), under a file, over a file-size limit, over a non-build folder; a missing or corrupt search index (search answers the 500 envelope, the rest of the site 200).',
    '',
  );
  return out.join('\n');
}

// ---------- main ----------

const m = machine();
let loadResult = null;
let fuzzResult = null;
let failed = false;
try {
  if (!SKIP.has('load')) {
    loadResult = await load();
    const { mixed, memory } = loadResult;
    log(
      `mixed: ${Math.round(mixed.rps)} req/s, p99 ${mixed.p99} ms, errors ${mixed.errors}, timeouts ${mixed.timeouts}, non-2xx ${mixed.non2xx}; RSS peak ${mib(memory.firstMax)}, then ${mib(memory.secondMax)}`,
    );
    const bad = (r) => r.errors + r.timeouts + r.non2xx > 0;
    failed ||=
      bad(mixed) || bad(memory.secondRun) || Object.values(loadResult.kinds).some(bad) || !memory.stable || loadResult.alive !== 200;
  }
  if (!SKIP.has('fuzz')) {
    fuzzResult = fuzz();
    const total = fuzzResult.figures.reduce((n, f) => n + f.failures, 0);
    log(
      `fuzz: ${fuzzResult.figures.length} fuzzers, ${fuzzResult.figures.reduce((n, f) => n + f.inputs, 0)} inputs, ${total} failures; tests ${fuzzResult.tests.passed} passed, ${fuzzResult.tests.failed} failed`,
    );
    failed ||= total > 0 || fuzzResult.tests.failed > 0 || fuzzResult.tests.failures.length > 0;
  }
  const text = report({ m, loadResult, fuzzResult, seconds: (performance.now() - started) / 1000 });
  if (REPORT === '-') console.log(text);
  else {
    writeFileSync(REPORT, `${text}\n`);
    log(`wrote ${REPORT}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
