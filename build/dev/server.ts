// The dev server: in front of a `folio serve` of the output directory, it
// adds live reload to pages as they pass, serves the reload script and its
// event stream, and shows the content's problems while there are any. It
// never dies of what a client does: an error in one response is logged, that
// response is cut, and the server goes on.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Problem } from '../content/problems.js';
import { startServer, type RunningServer } from '../serve.js';
import { devPolicy, EVENTS_PATH, problemsPage, RELOAD_PATH, RELOAD_SCRIPT, withLiveReload } from './live-reload.js';
import { listen } from '../listen.js';

export interface DevServerOptions {
  /** The output directory the site server serves. */
  out: string;
  port: number;
  host: string;
  /** The content's problems now: pages show them instead of the last good build. */
  problems(): Problem[];
  /** Reports an error that is not the client's going away. */
  log(message: string): void;
}

export interface DevServer {
  url: string;
  /** The site server takes the new manifest, model and search index: in place once it runs (no request is cut off). */
  refresh(): Promise<void>;
  /** Whether the site server runs (it starts with the first good build). */
  serving(): boolean;
  /** Tells open pages which targets changed (or that all did). */
  tell(targets: string[], all: boolean): void;
  /** When the last request came, on performance.now()'s clock. */
  lastRequest(): number;
  close(): Promise<void>;
}

/** Errors of a client that went away: nothing to log. */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_PREMATURE_CLOSE']);

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const { log } = options;
  let inner: RunningServer | null = null;
  let lastRequest = 0;
  const clients = new Set<ServerResponse>();

  const failed = (what: string) => (error: NodeJS.ErrnoException) => {
    if (!GONE.has(error.code ?? '')) log(`${what}: ${error.message}`);
  };

  const proxy = (req: IncomingMessage, res: ServerResponse, target: RunningServer) => {
    const url = new URL(target.url);
    // Each reply is read whole before it is sent on: a reply the site server
    // could not finish then gets a clean 502, never half a body, and nothing
    // is ever written to a reply that has ended.
    let settled = false;
    const send = (status: number, headers: Record<string, string | string[] | undefined>, body: Buffer | string | undefined) => {
      if (settled || res.writableEnded || res.destroyed) return;
      settled = true;
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const restarted = () =>
      send(
        502,
        { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        'folio dev: the site server did not finish this reply; reload the page.',
      );
    const upstream = httpRequest(
      { host: url.hostname, port: url.port, method: req.method, path: req.url, headers: { ...req.headers, host: url.host }, agent: false },
      (reply) => {
        const chunks: Buffer[] = [];
        reply.on('data', (c: Buffer) => chunks.push(c));
        reply.on('error', restarted);
        reply.on('aborted', restarted);
        reply.on('end', () => {
          const status = reply.statusCode ?? 502;
          const headers: Record<string, string | string[] | undefined> = { ...reply.headers };
          for (const name of ['transfer-encoding', 'connection', 'keep-alive']) delete headers[name];
          if (!String(reply.headers['content-type'] ?? '').startsWith('text/html')) return send(status, headers, Buffer.concat(chunks));
          // A page: the dev policy and no caching, and the reload script.
          for (const name of ['etag', 'content-length']) delete headers[name];
          headers['cache-control'] = 'no-store';
          const policy = headers['content-security-policy'];
          if (typeof policy === 'string') headers['content-security-policy'] = devPolicy(policy);
          if (req.method === 'HEAD') return send(status, headers, undefined);
          const body = Buffer.from(withLiveReload(Buffer.concat(chunks).toString('utf8')));
          send(status, { ...headers, 'content-length': String(body.length) }, body);
        });
      },
    );
    upstream.on('error', restarted);
    // The client went away: the site server need not finish for nobody.
    res.on('close', () => {
      if (!settled) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    lastRequest = performance.now();
    const path = (req.url ?? '/').split('?')[0];
    if (path === EVENTS_PATH) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write('retry: 500\n\n');
      clients.add(res);
      res.on('close', () => clients.delete(res));
      return;
    }
    if (path === RELOAD_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(RELOAD_SCRIPT);
      return;
    }
    const problems = options.problems();
    if (problems.length && (req.method === 'GET' || req.method === 'HEAD') && /text\/html/.test(req.headers.accept ?? '')) {
      res.writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : problemsPage(problems));
      return;
    }
    if (!inner) {
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(problems.length ? problemsPage(problems) : withLiveReload('<!doctype html><title>folio dev</title><p>No build yet.</p>'));
      return;
    }
    proxy(req, res, inner);
  };

  const front = createServer((req, res) => {
    const error = failed(`${req.method} ${req.url}`);
    res.on('error', error);
    req.on('error', error);
    try {
      handle(req, res);
    } catch (thrown) {
      error(thrown as Error);
      if (!res.headersSent)
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('folio dev: this request failed; see the terminal.');
      else res.destroy();
    }
  });
  await listen(front, options.port, options.host);
  const address = front.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    async refresh() {
      if (inner) await inner.reload().catch((error: Error) => log(error.message));
      else inner = await startServer({ dir: options.out, port: 0, host: '127.0.0.1' }).catch(() => null);
    },
    serving: () => inner !== null,
    tell(targets, all) {
      if (!targets.length && !all) return;
      const data = targets.length > 500 || all ? { all: true, targets: [] } : { all: false, targets };
      for (const res of clients) {
        if (res.writableEnded || res.destroyed) clients.delete(res);
        else res.write(`event: change\ndata: ${JSON.stringify(data)}\n\n`);
      }
    },
    lastRequest: () => lastRequest,
    async close() {
      for (const res of clients) res.end();
      clients.clear();
      const closed = new Promise<void>((ok) => front.close(() => ok()));
      front.closeAllConnections();
      await closed;
      await inner?.close();
    },
  };
}
