// folio serve: the local stand-in for a CDN (D1). Precomputed files are served
// with the manifest's headers, hot ones from memory (serve-files.ts);
// everything else goes to the same host-neutral function the CDN
// deployments run.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync, type ReadStream } from 'node:fs';
import { finished } from 'node:stream';
import { join, resolve } from 'node:path';
import { MANIFEST_PATH, routeHeaders, type Manifest } from './core/files.js';
import { internalError } from './core/errors.js';
import { matchesEtag, MAX_BODY_BYTES, type Reply, type Req } from './core/http.js';
import { prefersMarkdown } from './core/negotiate.js';
import { routeKey } from './core/static.js';
import { createHandler, type HandlerOptions } from './runtime/handler.js';
import { fileReader, FileCache } from './serve-files.js';
import { listen } from './listen.js';

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  handler?: HandlerOptions;
  /** Bytes of hot files kept in memory (serve-files.ts; default 64 MiB). */
  cacheBytes?: number;
}

async function readBody(req: IncomingMessage): Promise<{ body: Uint8Array | null; tooLarge: boolean }> {
  if (req.method === 'GET' || req.method === 'HEAD') return { body: null, tooLarge: false };
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return { body: null, tooLarge: true };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { body: null, tooLarge: true };
    chunks.push(chunk as Buffer);
  }
  return { body: Buffer.concat(chunks), tooLarge: false };
}

function toReq(req: IncomingMessage, body: Uint8Array | null, tooLarge: boolean): Req {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: q === -1 ? url : url.slice(0, q),
    search: q === -1 ? '' : url.slice(q + 1),
    headers,
    body,
    tooLarge,
  };
}

function send(res: ServerResponse, reply: Reply, method: string): void {
  res.writeHead(reply.status, reply.headers);
  res.end(method === 'HEAD' || !reply.body ? undefined : reply.body);
}

export interface RunningServer {
  server: Server;
  url: string;
  /**
   * Reads the manifest again and starts over with the model and the search
   * index (read on first use), on the same address: for a directory whose
   * build changed in place (folio dev). Every request checks its file on
   * disk, so a file rewritten under an unchanged route is served at once.
   */
  reload(): Promise<void>;
  close(): Promise<void>;
}

/** What to run before serving `dir`: a content folder (it has site.yaml) is built into another folder. */
function buildFirst(dir: string): string {
  return existsSync(join(dir, 'site.yaml'))
    ? `It holds site.yaml: it is content, not a build. Run \`npx folio build --content ${dir} --out dist\`, then \`npx folio serve --dir dist\`.`
    : `Run \`npx folio build --out ${dir}\` first.`;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dir = resolve(options.dir);
  const read = fileReader(dir);
  const load = async () => {
    const manifestText = await readFile(join(dir, MANIFEST_PATH), 'utf8').catch(() => {
      throw new Error(`${join(options.dir, MANIFEST_PATH)} is missing: ${options.dir} is not a folio build. ${buildFirst(options.dir)}`);
    });
    return { manifest: JSON.parse(manifestText) as Manifest, fn: createHandler(read, options.handler) };
  };
  let current = await load();
  const files = new FileCache(options.cacheBytes);

  // A client gets 15 s to send its headers and 30 s for the whole request (a 1 MiB body at most), not Node's 60 and 300:
  // with --host 0.0.0.0, a slow client holds a connection no longer than that.
  const server = createServer({ headersTimeout: 15_000, requestTimeout: 30_000 }, async (req, res) => {
    const { manifest, fn } = current;
    // An error of one response (a client gone mid-reply) ends that response only.
    res.on('error', () => res.destroy());
    try {
      const { body, tooLarge } = await readBody(req);
      const r = toReq(req, body, tooLarge);
      // What a CDN answers from its files: an exact path with no query string,
      // unless the page must be negotiated against its Markdown twin.
      const route = (r.method === 'GET' || r.method === 'HEAD') && !r.search ? manifest.routes[routeKey(r.path)] : undefined;
      const headers = route ? routeHeaders(manifest.header_sets, route) : undefined;
      if (route && headers && !(/\baccept\b/i.test(headers.vary ?? '') && prefersMarkdown(r.headers.accept))) {
        // Whole files only, as the functions answer: no Range. A file gone from under the manifest (a
        // build since, a hand edit) is the function's to answer, as on a CDN: from the files there
        // now, or with the 500 that names the missing file and the fix.
        const file = await files.get(join(dir, route[0])).catch(() => null);
        if (!file) return send(res, await fn(r), r.method);
        const all: Record<string, string> = { ...headers, etag: file.tag };
        if (matchesEtag(r.headers['if-none-match'], file.tag)) {
          file.release();
          return send(res, { status: 304, headers: all, body: null }, r.method);
        }
        all['content-length'] = String(file.size);
        if (file.body || r.method === 'HEAD') {
          file.release();
          return send(res, { status: 200, headers: all, body: file.body }, r.method);
        }
        res.writeHead(200, all);
        const stream = file.stream!();
        stream.on('error', () => res.destroy());
        finished(res, () => (stream as ReadStream).destroy());
        stream.pipe(res);
        return;
      }
      send(res, await fn(r), r.method);
    } catch (error) {
      console.error('folio serve:', error);
      if (res.headersSent || res.destroyed) res.destroy();
      else send(res, internalError(null), 'GET');
    }
  });
  await listen(server, options.port, options.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    server,
    url: `http://${host}:${port}`,
    async reload() {
      current = await load();
    },
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
