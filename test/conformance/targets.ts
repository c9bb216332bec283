// The two places the conformance suite runs against: `folio serve` and
// Cloudflare's own runtime (`wrangler pages dev`), both on 127.0.0.1 over the
// same built dist/.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../build/serve.js';
import { buildInto, tempDir } from '../helpers/site.js';

export interface Target {
  /** Base URL, no trailing slash. */
  url: string;
  /** The dist/ directory it serves. */
  dist: string;
  close(): Promise<void>;
}

/** The repository root: wrangler finds functions/ in its working directory. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Builds the sample site once into a temp dir. */
export async function buildSample(): Promise<{ dist: string; remove(): Promise<void> }> {
  const built = await buildInto('content');
  return { dist: built.out, remove: () => rm(join(built.out, '..'), { recursive: true, force: true }) };
}

export async function serveTarget(dist: string): Promise<Target> {
  const server = await startServer({ dir: dist, port: 0, host: '127.0.0.1' });
  return { url: server.url, dist, close: server.close };
}

/** A port nobody listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const WRANGLER = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
/** workerd 1.20250924 (wrangler 4.40.2) knows dates up to 2025-09-24. */
export const COMPATIBILITY_DATE = '2025-09-01';

/**
 * `wrangler pages dev` on dist/ with the repository's functions/, offline:
 * no metrics, its own HOME and state so a CI checkout needs nothing set up.
 * Resolves once a function route answers; close() ends the process group.
 */
export async function wranglerTarget(dist: string, timeoutMs = 120_000): Promise<Target> {
  const home = await tempDir('folio-wrangler-');
  await mkdir(join(home, '.config'), { recursive: true });
  const [port, inspector] = [await freePort(), await freePort()];
  const args = [WRANGLER, 'pages', 'dev', dist, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector)];
  args.push(
    '--compatibility-date',
    COMPATIBILITY_DATE,
    '--persist-to',
    join(home, 'state'),
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
  );
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Its own process group, so close() also ends the workerd it starts.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_LOG_PATH: join(home, 'logs'),
      NO_COLOR: '1',
      CI: '1',
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stopOnExit = () => kill(child, 'SIGKILL');
  process.once('exit', stopOnExit);

  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    process.off('exit', stopOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      kill(child, 'SIGTERM');
      const timer = setTimeout(() => kill(child, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(home, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`wrangler pages dev exited with ${child.exitCode} before it was ready:\n${output}`);
    }
    // A function route, not a static file: the functions bundle must be up.
    const ready = await fetch(`${url}/api/v1`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { url, dist, close };
    if (Date.now() > deadline) {
      await close();
      throw new Error(`wrangler pages dev did not answer on ${url} within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // The negative pid is the group of the child this test started, nothing else.
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}
