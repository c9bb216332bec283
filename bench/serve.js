// Local serving throughput: autocannon against `folio serve` and
// against a plain serve-handler server over the same dist/, each in its own
// child process bound to 127.0.0.1, for a bounded duration. Both servers
// answer the same files: folio by their public address (through its
// manifest), serve-handler by their file path.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Starts `node args` and resolves once it prints an http:// URL; rejects after 30 s. */
function startServer(args, name) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not print its URL within 30 s:\n${out}`));
    }, 30_000);
    const onData = (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop: () => stopChild(child) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before serving:\n${out}`));
    });
  });
}

function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const hard = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function cannon(url, requests, seconds, connections) {
  return autocannon({ url, requests, duration: seconds, connections, pipelining: 1 });
}

/** A bounded mix of precomputed targets that exist in this dist's manifest. */
export function pickTargets(manifest) {
  const routes = Object.keys(manifest.routes);
  const posts = routes.filter((t) => /^\/api\/v1\/posts\/[^/?]+$/.test(t)).sort();
  const spread = (list, n) => (list.length <= n ? list : Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]));
  const slugs = spread(posts, 8).map((t) => t.slice('/api/v1/posts/'.length));
  const wanted = ['/api/v1/posts', '/api/v1', '/llms.txt'];
  for (const slug of slugs) wanted.push(`/api/v1/posts/${slug}`, `/blog/${slug}`, `/blog/${slug}.md`);
  return wanted.filter((t) => manifest.routes[t]);
}

function row(name, what, r) {
  return {
    name,
    what,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mbps: r.throughput.average / 1e6,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The median of several autocannon rounds, as one row. */
function medianRow(name, what, rounds) {
  const rows = rounds.map((r) => row(name, what, r));
  const pick = (k) => median(rows.map((r) => r[k]));
  return {
    name,
    what,
    rps: pick('rps'),
    p50: pick('p50'),
    p99: pick('p99'),
    mbps: pick('mbps'),
    total: rows.reduce((a, r) => a + r.total, 0),
    non2xx: rows.reduce((a, r) => a + r.non2xx, 0),
    errors: rows.reduce((a, r) => a + r.errors, 0),
    rounds: rows.map((r) => r.rps),
  };
}

/**
 * Runs the serving benchmark over `dist` and resolves rows of
 * { name, what, rps, p50, p99 (ms), mbps, total, non2xx, errors }, and
 * `ratio`: folio serve's requests per second over serve-handler's on the
 * same files. Both servers run at once and are measured in alternate rounds
 * (folio, serve-handler, folio, …), so noise from other work on the machine
 * falls on both; each figure is the median of its rounds, and the ratio the
 * median of the rounds' ratios.
 */
export async function benchServe({ dist, seconds = 10, connections = 10, rounds = 3, log = console.log }) {
  const manifest = JSON.parse(readFileSync(join(dist, '_folio', 'manifest.json'), 'utf8'));
  const targets = pickTargets(manifest);
  if (!targets.length) throw new Error(`${dist}: the manifest lists none of the benchmark's targets.`);
  const warm = Math.min(2, seconds);
  const each = Math.max(1, Math.round(seconds / rounds));
  const folio = await startServer([join(ROOT, 'bin', 'folio.js'), 'serve', '--dir', dist, '--port', '0'], 'folio serve');
  let plain = null;
  try {
    plain = await startServer([join(ROOT, 'bench', 'peers', 'static-server.js'), dist, '0'], 'serve-handler');
    const byAddress = targets.map((path) => ({ method: 'GET', path }));
    const byFile = targets.map((t) => ({ method: 'GET', path: `/${manifest.routes[t][0].split('/').map(encodeURIComponent).join('/')}` }));
    await cannon(folio.url, byAddress, warm, connections);
    await cannon(plain.url, byFile, warm, connections);
    const ours = [];
    const theirs = [];
    for (let i = 1; i <= rounds; i++) {
      log(`  serve: round ${i}/${rounds}: folio serve and serve-handler, the same ${targets.length} files, ${each} s each`);
      ours.push(await cannon(folio.url, byAddress, each, connections));
      theirs.push(await cannon(plain.url, byFile, each, connections));
    }
    // What only the function answers: Markdown by Accept, and a query the build did not enumerate.
    const dynamic = [
      ...targets
        .filter((t) => t.startsWith('/blog/') && !t.endsWith('.md'))
        .map((path) => ({ method: 'GET', path, headers: { accept: 'text/markdown' } })),
      { method: 'GET', path: '/api/v1/posts?limit=7&offset=3' },
    ];
    await cannon(folio.url, dynamic, warm, connections);
    log(`  serve: folio serve, negotiated and unenumerated requests, ${seconds} s`);
    const rows = [
      medianRow('folio serve', `${targets.length} precomputed targets by address`, ours),
      medianRow('serve-handler', `the same ${targets.length} files by file path`, theirs),
      row(
        'folio serve',
        `${dynamic.length} function-answered requests (Accept: text/markdown, odd paging)`,
        await cannon(folio.url, dynamic, seconds, connections),
      ),
    ];
    const ratio = median(ours.map((r, i) => r.requests.average / theirs[i].requests.average));
    return { targets, rows, ratio, connections, seconds, rounds, each };
  } finally {
    await folio.stop();
    await plain?.stop();
  }
}
