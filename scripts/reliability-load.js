// The load part of `npm run reliability` (scripts/reliability.js): builds the
// sample into `work`, starts `folio serve` on 127.0.0.1 as its own process,
// and runs autocannon against a mix of precomputed JSON, Markdown twins,
// search and MCP tools/list, sampling the server's resident memory every
// second; then each kind alone, then the mix again to see whether memory
// keeps growing.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from './ports.js';

const MiB = 1024 * 1024;

/** Resident memory of a process in bytes (Linux /proc, else ps). */
function rss(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux
  }
  const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return ps.status === 0 ? Number(ps.stdout.trim()) * 1024 : NaN;
}

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

async function cannon(url, requests, seconds, connections) {
  const result = await autocannon({ url, connections, duration: seconds, requests, timeout: 10 });
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

/**
 * The load figures: `root` is the checkout (its bin/folio.js and content/),
 * `work` a scratch folder, `now` the build clock; `seconds` of mixed load at
 * `connections`, then `kindSeconds` of each kind alone (0 skips them).
 */
export async function load({ root, work, now, seconds, connections, kindSeconds, log }) {
  const out = join(work, 'dist');
  log('building the sample site');
  const built = spawnSync(
    process.execPath,
    [join(root, 'bin/folio.js'), 'build', '--content', join(root, 'content'), '--out', out, '--now', now],
    { encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(`folio build failed:\n${built.stderr}`);
  const site = JSON.parse(readFileSync(join(out, '_folio/site.json'), 'utf8'));
  const slugs = site.posts.map((p) => p.slug);
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [join(root, 'bin/folio.js'), 'serve', '--dir', out, '--port', String(port), '--host', '127.0.0.1'],
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
      const result = await cannon(url, requests, seconds, connections);
      clearInterval(timer);
      samples.push(rss(server.pid));
      return { result, samples };
    };
    log(`warm-up: 10 s at ${connections} connections`);
    await cannon(url, all, 10, connections);
    const rssWarm = rss(server.pid);
    log(`mixed load: ${seconds} s at ${connections} connections over ${all.length} requests`);
    const first = await sampled(all, seconds);
    const mixed = first.result;
    const kinds = {};
    if (kindSeconds > 0) {
      for (const [kind, requests] of Object.entries(mix)) {
        log(`${kind} alone: ${kindSeconds} s`);
        kinds[kind] = await cannon(url, requests, kindSeconds, connections);
      }
    }
    const rssAfterKinds = rss(server.pid);
    const again = Math.max(5, Math.round(seconds / 2));
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
