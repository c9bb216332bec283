// `wrangler pages dev` on a built dist/ with the repository's functions/,
// offline: no metrics, its own HOME and state, so a CI checkout needs nothing
// set up. The conformance tests and the edge benchmark both start it here.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

/** The repository root: wrangler finds functions/ in its working directory. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const WRANGLER = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
/** workerd 1.20250924 (wrangler 4.40.2) knows dates up to 2025-09-24. */
export const COMPATIBILITY_DATE = '2025-09-01';

/** What wrangler prints when a port it was given is taken by another process. */
const PORT_TAKEN = /Address already in use/;

/**
 * Starts wrangler pages dev on `dist` and resolves once `ready(url)` says it
 * answers (a function route, or a static file when the functions must stay
 * cold); close() ends its process group. A port taken between the probe and
 * wrangler's bind gets another try on new ports.
 */
export async function startWrangler(dist, options) {
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(dist, options);
    if (!started.portTaken) return started.server;
    if (attempt === 3) throw new Error(`wrangler pages dev found its port taken on 3 tries:\n${started.output}`);
  }
}

async function startOnce(dist, { ready, timeoutMs = 120_000 }) {
  const home = await mkdtemp(join(tmpdir(), 'folio-wrangler-'));
  await mkdir(join(home, '.config'), { recursive: true });
  const [port, inspector] = [await freePort(), await freePort()];
  const args = [WRANGLER, 'pages', 'dev', dist, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector)];
  args.push(
    '--compatibility-date',
    COMPATIBILITY_DATE,
    '--persist-to',
    join(home, 'state'),
    '--show-interactive-dev-session=false',
    // Info, for the "Ready on" line that says which port wrangler listens on.
    '--log-level',
    'info',
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
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  let listening = false;
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
    listening ||= output.includes(`Ready on ${url}`);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const stopOnExit = () => kill(child, 'SIGKILL');
  process.once('exit', stopOnExit);

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
    // A taken port can leave wrangler running without a runtime, while
    // whichever server holds the port answers: only its own "Ready on" line
    // says the answers to come are this wrangler's.
    if (PORT_TAKEN.test(output)) {
      await close();
      return { portTaken: true, output };
    }
    if (child.exitCode !== null) {
      await close();
      throw new Error(`wrangler pages dev exited with ${child.exitCode} before it was ready:\n${output}`);
    }
    if (listening && (await ready(url).catch(() => false))) return { server: { url, close } };
    if (Date.now() > deadline) {
      await close();
      throw new Error(`wrangler pages dev did not answer on ${url} within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function kill(child, signal) {
  try {
    // The negative pid is the group of the child started here, nothing else.
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
