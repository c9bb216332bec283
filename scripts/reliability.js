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
//
// The parts: reliability-load.js, reliability-fuzz.js, reliability-report.js.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fuzz } from './reliability-fuzz.js';
import { machineFacts } from './machine.js';
import { load } from './reliability-load.js';
import { mib, report } from './reliability-report.js';

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

const started = performance.now();
const log = (...a) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s]`, ...a);
const work = mkdtempSync(join(tmpdir(), 'folio-reliability-'));

function sh(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: ROOT });
  return r.status === 0 ? r.stdout.trim() : null;
}

function machine() {
  const { osName, kernel, ...facts } = machineFacts();
  return {
    ...facts,
    os: `${osName} (kernel ${kernel})`,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(', '),
    commit: sh('git', ['rev-parse', '--short', 'HEAD']) ?? 'unknown',
    dirty: (sh('git', ['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
  };
}

const m = machine();
let loadResult = null;
let fuzzResult = null;
let failed = false;
try {
  if (!SKIP.has('load')) {
    loadResult = await load({ root: ROOT, work, now: NOW, seconds: SECONDS, connections: CONNECTIONS, kindSeconds: KIND_SECONDS, log });
    const { mixed, memory } = loadResult;
    log(
      `mixed: ${Math.round(mixed.rps)} req/s, p99 ${mixed.p99} ms, errors ${mixed.errors}, timeouts ${mixed.timeouts}, non-2xx ${mixed.non2xx}; RSS peak ${mib(memory.firstMax)}, then ${mib(memory.secondMax)}`,
    );
    const bad = (r) => r.errors + r.timeouts + r.non2xx > 0;
    failed ||=
      bad(mixed) || bad(memory.secondRun) || Object.values(loadResult.kinds).some(bad) || !memory.stable || loadResult.alive !== 200;
  }
  if (!SKIP.has('fuzz')) {
    fuzzResult = fuzz({ root: ROOT, work, scale: SCALE, cloudflare: !SKIP.has('cloudflare'), log });
    const total = fuzzResult.figures.reduce((n, f) => n + f.failures, 0);
    log(
      `fuzz: ${fuzzResult.figures.length} fuzzers, ${fuzzResult.figures.reduce((n, f) => n + f.inputs, 0)} inputs, ${total} failures; tests ${fuzzResult.tests.passed} passed, ${fuzzResult.tests.failed} failed`,
    );
    failed ||= total > 0 || fuzzResult.tests.failed > 0 || fuzzResult.tests.failures.length > 0;
  }
  const run = { seconds: SECONDS, connections: CONNECTIONS, kindSeconds: KIND_SECONDS, scale: SCALE, now: NOW };
  const text = report({ m, loadResult, fuzzResult, seconds: (performance.now() - started) / 1000, run });
  if (REPORT === '-') console.log(text);
  else {
    writeFileSync(REPORT, `${text}\n`);
    log(`wrote ${REPORT}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
