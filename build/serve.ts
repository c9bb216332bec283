// folio serve: the local stand-in for a CDN (D1). Precomputed files are served
// by serve-handler with the manifest's headers; everything else goes to the
// same host-neutral function the CDN deployments run.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { close as closeFd, createReadStream, fstat as fstatCallback, open as openCallback, readFile as readFileCallback, type ReadStream } from 'node:fs';
import { finished } from 'node:stream';
import { promisify } from 'node:util';
import { join, resolve, sep } from 'node:path';
import serveHandler from 'serve-handler';
import { MANIFEST_PATH, type Manifest } from './core/files.js';
import { internalError } from './core/errors.js';
import { etag, matchesEtag, MAX_BODY_BYTES, type Reply, type Req } from './core/http.js';
import { prefersMarkdown } from './core/negotiate.js';
import { createHandler, type HandlerOptions, type ReadAsset } from './runtime/handler.js';

// The callback forms: a number for a descriptor is cheaper per request than a FileHandle.
const openFd = promisify(openCallback);
const fstat = promisify(fstatCallback);
const readFd = promisify(readFileCallback) as (fd: number) => Promise<Buffer>;

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  handler?: HandlerOptions;
}

export function fileReader(dir: string): ReadAsset {
  const root = resolve(dir);
  return async (path) => {
    const full = resolve(root, path);
    // Never outside dist/ (path traversal).
    if (full !== root && !full.startsWith(root + sep)) return null;
    try {
      return await readFile(full);
    } catch {
      return null;
    }
  };
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
  return { method: (req.method ?? 'GET').toUpperCase(), path: q === -1 ? url : url.slice(0, q), search: q === -1 ? '' : url.slice(q + 1), headers, body, tooLarge };
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
   * build changed in place (folio dev). Files themselves are always read
   * from disk, so a file rewritten under an unchanged route is served at once.
   */
  reload(): Promise<void>;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dir = resolve(options.dir);
  const read = fileReader(dir);
  const load = async () => {
    const manifestText = await readFile(join(dir, MANIFEST_PATH), 'utf8').catch(() => {
      throw new Error(`${join(options.dir, MANIFEST_PATH)} is missing: ${options.dir} is not a folio build. Run \`folio build --out ${options.dir}\` first.`);
    });
    return { manifest: JSON.parse(manifestText) as Manifest, fn: createHandler(read, options.handler) };
  };
  let current = await load();
  const etags = new Map<string, [number, number, number, string]>();

  /**
   * One descriptor per request: the ETag, the length and the bytes all come
   * from the file as it was when opened, even if folio dev renames a new one
   * over it meanwhile (by path, the length could be the old file's and the
   * bytes the new one's: a cut-off reply). Returns serve-handler's file
   * system calls, answered from that descriptor, which closes when the reply
   * is done or the client has gone.
   */
  const openFile = async (file: string, res: ServerResponse) => {
    const full = join(dir, file);
    const fd = await openFd(full, 'r');
    let stream: ReadStream | null = null;
    let released = false;
    // The stream closes the descriptor when it ends or is destroyed.
    const release = () => {
      if (released) return;
      released = true;
      if (stream) stream.destroy();
      else closeFd(fd, () => undefined);
    };
    try {
      const stats = await fstat(fd);
      const { mtimeMs, ino, size } = stats;
      // A file replaced in place (a rename) has another inode even within the same tick of the clock.
      const cached = etags.get(full);
      let tag = cached && cached[0] === mtimeMs && cached[1] === ino && cached[2] === size ? cached[3] : null;
      if (!tag) {
        tag = etag(await readFd(fd));
        etags.set(full, [mtimeMs, ino, size, tag]);
      }
      finished(res, release);
      const methods = {
        lstat: async (path: string) => (path === full ? stats : Promise.reject(Object.assign(new Error(`${path} is not the file served`), { code: 'ENOENT' }))),
        realpath: async (path: string) => path,
        createReadStream: (_path: string, options: { start?: number; end?: number }) => {
          // A closed number may already name another file.
          if (released) throw new Error(`${full}: the client has gone`);
          // Positions given: the read above moved the descriptor's own.
          stream = createReadStream('', { ...options, fd, start: options.start ?? 0, autoClose: true });
          return stream.on('error', () => res.destroy());
        },
      };
      return { tag, methods };
    } catch (error) {
      release();
      throw error;
    }
  };

  const server = createServer(async (req, res) => {
    const { manifest, fn } = current;
    // An error of one response (a client gone mid-reply) ends that response only.
    res.on('error', () => res.destroy());
    try {
      const { body, tooLarge } = await readBody(req);
      const r = toReq(req, body, tooLarge);
      // What a CDN answers from its files: an exact path with no query string,
      // unless the page must be negotiated against its Markdown twin.
      const route = (r.method === 'GET' || r.method === 'HEAD') && !r.search ? manifest.routes[r.path] : undefined;
      const headers = route ? manifest.header_sets[route[1]]! : undefined;
      if (route && headers && !(/\baccept\b/i.test(headers.vary ?? '') && prefersMarkdown(r.headers.accept))) {
        const { tag, methods } = await openFile(route[0], res);
        const all = { ...headers, etag: tag };
        if (matchesEtag(r.headers['if-none-match'], tag)) return send(res, { status: 304, headers: all, body: null }, r.method);
        req.url = `/${route[0].split('/').map(encodeURIComponent).join('/')}`;
        // Whole files only, as the functions answer: serve-handler would turn an
        // unsatisfiable Range into a 416 carrying the whole file.
        delete req.headers.range;
        delete req.headers['if-range'];
        await serveHandler(req, res, {
          public: dir,
          cleanUrls: false,
          directoryListing: false,
          // serve-handler matches with minimatch, whose ** skips dot directories such as .well-known/.
          headers: ['**', '.well-known/**'].map((source) => ({ source, headers: Object.entries({ ...all, 'Content-Type': null, 'Content-Disposition': null, 'Last-Modified': null, 'Accept-Ranges': null }).map(([key, value]) => ({ key, value })) as never })),
        }, methods as never);
        return;
      }
      send(res, await fn(r), r.method);
    } catch (error) {
      console.error('folio serve:', error);
      if (res.headersSent || res.destroyed) res.destroy();
      else send(res, internalError(null), 'GET');
    }
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => ok());
  });
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
