// Runs one command in its own child process and measures its wall time and
// peak memory. Peak RSS comes from GNU time (`/usr/bin/time -f %M`, the
// kernel's own high-water mark) when it is installed, and from sampling the
// process tree in /proc otherwise; the larger of the two is kept, so a
// command that forks workers is not under-counted.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';
export const hasGnuTime = existsSync(GNU_TIME) && probeGnuTime();
const SAMPLE_MS = 50;

function probeGnuTime() {
  // busybox's time has no -f; GNU time names itself in --version.
  const r = spawnSync(GNU_TIME, ['--version'], { encoding: 'utf8' });
  return /GNU/.test(`${r.stdout}${r.stderr}`);
}

/** The pids below `pid` (not including it), via /proc/<pid>/task/<tid>/children. */
function descendants(pid, out = []) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    let kids;
    try {
      kids = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const k of kids.split(' ').filter(Boolean)) {
      out.push(Number(k));
      descendants(Number(k), out);
    }
  }
  return out;
}

function rssBytes(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs `cmd args` and resolves { ms, cpuMs (user + system, null without GNU time),
 * peakRss (bytes), code, stdout, stderr }.
 * Rejects when the command exits non-zero, with its stderr in the message.
 */
export function measure(cmd, args, { cwd, env, allowFailure = false } = {}) {
  const wrapped = hasGnuTime ? [GNU_TIME, ['-f', '__BENCH_TIME %M %U %S', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(wrapped[0], wrapped[1], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let sampled = 0;
    const sample = () => {
      // Under GNU time the measured command is time's child; otherwise it is the root.
      const pids = hasGnuTime ? descendants(child.pid) : [child.pid, ...descendants(child.pid)];
      const sum = pids.reduce((s, p) => s + rssBytes(p), 0);
      if (sum > sampled) sampled = sum;
    };
    const timer = setInterval(sample, SAMPLE_MS);
    child.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      const ms = performance.now() - started;
      let peak = sampled;
      let cpuMs = null;
      const m = /__BENCH_TIME (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      if (m) {
        peak = Math.max(peak, Number(m[1]) * 1024);
        cpuMs = (Number(m[2]) + Number(m[3])) * 1000;
        stderr = stderr.slice(0, m.index).replace(/Command exited with non-zero status \d+\s*$/, '');
      }
      if (code !== 0 && !allowFailure) {
        reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}`));
        return;
      }
      resolve({ ms, cpuMs, peakRss: peak, code, stdout, stderr });
    });
  });
}

/**
 * Waits until no output a folio build replaced in `dir` is still being
 * removed, at most `limitMs`, then until the kernel has written back what
 * the builds before wrote. A build moves the previous dist/ aside as
 * `.<name>.folio-old-…` and leaves its removal to a detached process
 * (build/emit/atomic.ts): at 10,000 posts 35,000 files, which would otherwise
 * share the machine with the next timed command; and three cold builds leave
 * about a gigabyte to write back (in one run the two edits after them took a
 * fifth longer than the third). A build in CI runs once, so neither overlaps
 * its build there.
 */
export async function replacedOutputsGone(dir, limitMs = 60_000) {
  const until = performance.now() + limitMs;
  const pending = () => {
    try {
      return readdirSync(dir).some((name) => name.includes('.folio-old-'));
    } catch {
      return false;
    }
  };
  while (pending() && performance.now() < until) await new Promise((ok) => setTimeout(ok, 50));
  spawnSync('sync');
}

/** Longer than the 3 s a content file must settle to carry a stamp (content/load.ts SETTLE_MS). */
const SETTLED_MS = 3_500;

/**
 * The content folder as a CI job's git checkout leaves it: the same path, its
 * changes committed, every file new (new inodes and times, so no stamp of
 * the last build's own matches), and older than a file must be to carry a
 * stamp, as a job that restores its cache and installs its tools after the
 * checkout finds them. The files git's index vouches for are then known by
 * their blobs (content/git-index.ts). Without git, a copy, whose every file
 * is read.
 */
export function freshCheckout(content) {
  const fresh = `${content}.checkout`;
  rmSync(fresh, { recursive: true, force: true });
  const git = (cwd, ...args) =>
    spawnSync('git', ['-c', 'user.email=bench@folio.example', '-c', 'user.name=folio bench', ...args], { cwd, stdio: 'ignore' }).status ===
    0;
  const cloned =
    git(content, 'init', '--quiet') &&
    git(content, 'add', '--all') &&
    git(content, 'commit', '--quiet', '--allow-empty', '--message', 'The content as the bench left it') &&
    git(content, 'clone', '--quiet', content, fresh);
  if (!cloned) {
    rmSync(fresh, { recursive: true, force: true });
    cpSync(content, fresh, { recursive: true });
  }
  rmSync(content, { recursive: true });
  renameSync(fresh, content);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLED_MS);
}

/** Number of files and their total bytes below `dir` (0 when it is missing). */
export function countFiles(dir) {
  let files = 0;
  let bytes = 0;
  const walk = (d) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        files++;
        bytes += statSync(p).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}
