// folio dev never dies of what a client does: many connections poll pages,
// the API, search, MCP and the live-reload stream through rapid edits, and
// some of them go away mid-request, mid-reply or mid-stream. The real CLI
// runs in its own process, so a crash shows as an exit, not as a test error.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyContent, tempDir } from './helpers/site.js';

const POST = 'bounce-handling';
const EDITS = 40;
const CLIENTS = 24;

let work: string;
let content: string;
let child: ChildProcess;
let output = '';
let url = '';
let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;

beforeAll(async () => {
  work = await tempDir('folio-dev-clients-');
  content = await copyContent();
  child = spawn(
    process.execPath,
    [
      'bin/folio.js',
      'dev',
      '--content',
      content,
      '--out',
      join(work, 'dist'),
      '--port',
      '0',
      '--now',
      '2026-11-22T00:00:00Z',
      '--no-cache',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const deadline = Date.now() + 120_000;
  while (!url) {
    if (exited || Date.now() > deadline) throw new Error(`folio dev did not start:\n${output}`);
    url = /serving at (http:\/\/[\d.]+:\d+)/.exec(output)?.[1] ?? '';
    await new Promise((ok) => setTimeout(ok, 50));
  }
}, 130_000);

afterAll(async () => {
  if (!exited) child.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

const PATHS = [
  '/',
  `/blog/${POST}`,
  `/blog/${POST}.md`,
  '/blog',
  `/api/v1/posts/${POST}`,
  '/api/v1/posts?limit=3&offset=1',
  '/api/v1/search?q=bounce',
  '/feed.xml',
  '/llms-full.txt',
  '/_folio/dev/reload.js',
  '/no-such-page',
];

/** One raw HTTP exchange that the client may cut short: after sending the head, after the first bytes of the reply, or never. */
function rawExchange(target: string, method: string, cut: 'none' | 'request' | 'reply', extra = ''): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    const finish = () => {
      socket.destroy();
      done();
    };
    socket.setTimeout(10_000, finish);
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/html\r\n${extra}\r\n`);
      if (cut === 'request') setTimeout(finish, Math.random() * 5);
    });
    socket.on('data', () => {
      if (cut === 'reply') finish();
    });
    socket.on('end', finish);
  });
}

/** A client that polls until `stop()`, mixing whole requests, cut ones, HEAD, MCP and event streams. */
async function poll(n: number, stopped: () => boolean): Promise<number> {
  let requests = 0;
  while (!stopped()) {
    const path = PATHS[(n + requests) % PATHS.length]!;
    const kind = (n + requests) % 6;
    requests++;
    if (kind === 0)
      await fetch(url + path, { signal: AbortSignal.timeout(10_000) })
        .then((r) => r.arrayBuffer())
        .catch(() => undefined);
    else if (kind === 1) await rawExchange(path, 'GET', 'request');
    else if (kind === 2) await rawExchange(path, 'GET', 'reply');
    else if (kind === 3) await rawExchange(path, 'HEAD', 'none', 'Connection: close\r\n');
    else if (kind === 4) await rawExchange('/_folio/dev/events', 'GET', Math.random() < 0.5 ? 'reply' : 'request');
    else {
      const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
      await rawExchange('/mcp', 'POST', 'request', `Content-Type: application/json\r\nContent-Length: ${body.length * 2}\r\n\r\n${body}`);
    }
  }
  return requests;
}

describe('folio dev under polling clients', () => {
  it('keeps serving through rapid edits while clients poll and drop connections', { timeout: 240_000 }, async () => {
    const file = join(content, 'posts', `${POST}.md`);
    const original = await readFile(file, 'utf8');
    // Streams that stay open through every rebuild, as open pages hold them.
    const streams = Array.from({ length: 4 }, () => fetch(`${url}/_folio/dev/events`).then((r) => r.body!.getReader()));
    let stop = false;
    const clients = Array.from({ length: CLIENTS }, (_, n) => poll(n, () => stop || exited !== null));
    for (let i = 0; i < EDITS && !exited; i++) {
      await appendFile(file, `\nPolled edit ${i}.\n`);
      await new Promise((ok) => setTimeout(ok, 20 + (i % 5) * 15));
    }
    await writeFile(file, original);
    await new Promise((ok) => setTimeout(ok, 1000));
    stop = true;
    const counts = await Promise.all(clients);
    for (const s of await Promise.all(streams)) await s.cancel().catch(() => undefined);
    expect(exited, output).toBeNull();
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(CLIENTS * 4);
    // Still whole, and still rebuilding: the post is served as it is on disk now (once the last rebuild ran).
    let served = '';
    for (let i = 0; i < 600 && (served === '' || served.includes('Polled edit')); i++) {
      const res = await fetch(`${url}/api/v1/posts/${POST}`);
      expect(res.status).toBe(200);
      served = ((await res.json()) as { content_markdown: string }).content_markdown;
      if (served.includes('Polled edit')) await new Promise((ok) => setTimeout(ok, 100));
    }
    expect(served).not.toContain('Polled edit');
    expect(exited, output).toBeNull();
    expect(output).not.toMatch(/ERR_STREAM|Unhandled|uncaught/i);
  });
});
