// The edit-to-served latency of `folio dev` (the authoring issue's target:
// ≤ 100 ms for a one-post edit at 10,000 posts), when folio has that
// command: start it on a private copy of the corpus, append a sentence to
// one post, and poll that post's JSON until the sentence is served.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const BIN = join(ROOT, 'bin', 'folio.js');
const POLL_MS = 5;
const EDIT_TIMEOUT_MS = 120_000;
const START_TIMEOUT_MS = 600_000;
/** Until folio dev says the rest of a rebuild (lists, feeds, search index, host files) is written. */
const SETTLE_TIMEOUT_MS = 300_000;
// "  then 5 more files (…) in 1234 ms": the rebuild is over. Or the rest was left to a waiting change, or the content has problems.
const SETTLED = /then \d+ more files? [^\n]* in \d+ ms|left to its rebuild|still serving the last good build/;

/** The flags `folio dev --help` lists, or null when there is no dev command. */
export function devFlags() {
  const r = spawnSync(process.execPath, [BIN, 'dev', '--help'], { encoding: 'utf8' });
  if (r.status !== 0 || !/Usage: folio dev/.test(r.stdout)) return null;
  return new Set([...r.stdout.matchAll(/--([a-z-]+)/g)].map((m) => m[1]));
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

async function fetchText(url) {
  try {
    // Bounded: a request caught by the dev server's restart must not hang the bench.
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return res.ok ? await res.text() : null;
  } catch {
    return null;
  }
}

/** Polls until `url` serves a body containing `needle`; resolves the elapsed ms. Stops early once `alive()` is false. */
async function until(url, needle, timeoutMs, alive = () => true) {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (!alive()) throw new Error(`folio dev exited while waiting for ${url} to serve "${needle}"`);
    const body = await fetchText(url);
    if (body?.includes(needle)) return performance.now() - t0;
    await sleep(POLL_MS);
  }
  throw new Error(`${url} did not serve "${needle}" within ${timeoutMs / 1000} s`);
}

/**
 * Runs `folio dev` over `content` (a private copy: it is edited) and
 * measures `edits` one-post edits. Resolves { skip } when there is no dev command.
 */
export async function benchDev({ content, out, cwd, post, now, edits, log = console.log }) {
  const flags = devFlags();
  if (!flags) return { skip: 'folio has no `dev` command yet' };
  const args = [BIN, 'dev'];
  if (flags.has('content')) args.push('--content', content);
  if (flags.has('out')) args.push('--out', out);
  if (flags.has('port')) args.push('--port', '0');
  if (flags.has('now')) args.push('--now', now);
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const alive = () => child.exitCode === null && child.signalCode === null;
  let output = '';
  /** When folio dev said the rebuild that began after `mark` is over (its clock: performance.now()); null from a folio dev that never says so. */
  const settled = async (mark) => {
    const by = performance.now() + SETTLE_TIMEOUT_MS;
    while (performance.now() < by) {
      if (SETTLED.test(output.slice(mark))) return performance.now();
      if (!alive()) throw new Error(`folio dev exited during a rebuild: ${output.slice(-500)}`);
      await sleep(20);
    }
    return null;
  };
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  try {
    const t0 = performance.now();
    let url = null;
    while (!url && performance.now() - t0 < START_TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`folio dev exited with ${child.exitCode}: ${output.slice(-500)}`);
      url = /(http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+)/.exec(output)?.[1] ?? null;
      await sleep(50);
    }
    if (!url) throw new Error(`folio dev printed no URL within ${START_TIMEOUT_MS / 1000} s: ${output.slice(-500)}`);
    const slug = basename(post, '.md');
    const target = `${url}/api/v1/posts/${slug}`;
    await until(target, '"slug"', START_TIMEOUT_MS, alive);
    const startMs = performance.now() - t0;
    // A recursive fs.watch may still be setting up after the first answer:
    // one unmeasured edit, repeated until it is served, proves the watcher live.
    await sleep(2000);
    const warm = `dev-warm-up-${Date.now().toString(36)}`;
    const warmMark = output.length;
    const warmUntil = performance.now() + START_TIMEOUT_MS;
    for (let seen = false; !seen;) {
      if (performance.now() > warmUntil) throw new Error(`folio dev never served an edit of ${post}: ${output.slice(-500)}`);
      appendFileSync(post, `\nA warm-up sentence (${warm}).\n`);
      if (!alive()) throw new Error(`folio dev exited during the warm-up edit: ${output.slice(-500)}`);
      seen = await until(target, warm, 10_000, alive).then(
        () => true,
        () => false,
      );
    }
    const warmReportedBy = performance.now() + EDIT_TIMEOUT_MS;
    while (!/→ [^\n]* in \d+ ms/.test(output.slice(warmMark)) && performance.now() < warmReportedBy) await sleep(20);
    await settled(warmMark);
    await sleep(500);
    const times = [];
    const own = [];
    const settle = [];
    for (let i = 1; i <= edits; i++) {
      const needle = `dev-edit-${i}-${Date.now().toString(36)}`;
      const mark = output.length;
      const t = performance.now();
      appendFileSync(post, `\nA sentence added while folio dev runs (${needle}).\n`);
      await until(target, needle, EDIT_TIMEOUT_MS, alive).catch((error) => {
        throw new Error(`edit ${i}: ${error.message}; folio dev printed since the edit: ${JSON.stringify(output.slice(mark).slice(-400))}`);
      });
      times.push(performance.now() - t);
      // folio dev reports "<time> posts/x.md changed → … in N ms" once the
      // edit is served, and "  then N more files … in M ms" once the rest of
      // the rebuild is written; the next edit waits for both, so edits never
      // overlap and each is measured against an idle folio dev.
      const reportedBy = performance.now() + EDIT_TIMEOUT_MS;
      while (!/→ [^\n]* in \d+ ms/.test(output.slice(mark)) && performance.now() < reportedBy) await sleep(20);
      const done = await settled(mark);
      if (done !== null) settle.push(done - t);
      await sleep(300);
      const reported = [...output.slice(mark).matchAll(/→ [^\n]* in (\d+) ms/g)].map((m) => Number(m[1]));
      if (reported.length) own.push(reported.reduce((a, b) => a + b, 0));
      const rest = done === null ? '' : `; the rest of the rebuild written after ${(done - t).toFixed(0)} ms`;
      log(
        `  folio dev: edit ${i}/${edits} served after ${times.at(-1).toFixed(0)} ms${reported.length ? ` (folio dev reports ${reported.join(' + ')} ms)` : ''}${rest}`,
      );
    }
    return {
      startMs,
      ms: median(times),
      runs: times,
      ownMs: own.length ? median(own) : null,
      settledMs: settle.length ? median(settle) : null,
      pollMs: POLL_MS,
    };
  } finally {
    if (alive()) {
      const hard = setTimeout(() => child.kill('SIGKILL'), 5_000);
      const exited = new Promise((ok) => child.once('exit', ok));
      child.kill('SIGTERM');
      await exited;
      clearTimeout(hard);
    }
  }
}
