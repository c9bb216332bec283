// folio dev (D1): build, serve, watch content/, rebuild incrementally on every
// change and print what changed; open pages reload when their bytes change.
//
// The output directory holds exactly what `folio build` would write (the
// incremental rebuild is compared with a clean build in the tests). The only
// dev-only parts live in the front server below: a live-reload script and
// its event stream, added to HTML responses as they pass through, with the
// page's Content-Security-Policy widened to allow that one same-origin
// script. Nothing of it is ever written to the output.
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join, relative, resolve } from 'node:path';
import type { Source } from './content/frontmatter.js';
import { loadContent, reloadFile, type ContentSources } from './content/load.js';
import { ContentError, type Problem } from './content/problems.js';
import { MANIFEST_PATH } from './core/files.js';
import { build, emit } from './emit/build.js';
import { forgetState, RecordCache, saveState } from './emit/cache.js';
import { readContentFast, type Remembered } from './emit/documents.js';
import { digestSite, planBuild, type BuildState } from './emit/incremental.js';
import { paint } from './progress.js';
import { startServer } from './serve.js';
import { assembleSite } from './site.js';

export interface DevOptions {
  content: string;
  out: string;
  /** The build clock of the whole session. */
  now: Date;
  siteUrl?: string;
  cache: string | false;
  workers?: number;
  port: number;
  host: string;
  log(line: string): void;
  color?: boolean;
  /** Quiet time after the last file event before a rebuild starts. */
  debounceMs?: number;
}

export interface RebuildReport {
  ok: boolean;
  /** From the change to the new responses being served. */
  ms: number;
  /** Until the artifacts (search index, host files) were written too. */
  totalMs?: number;
  /** Content files added, changed or removed (as shown in messages). */
  sources: { added: string[]; changed: string[]; removed: string[] };
  /** Output files added, changed or removed, relative to the output directory. */
  files: { added: string[]; changed: string[]; removed: string[] };
  /** Request targets whose bytes changed: open pages at these paths reload. */
  targets: string[];
  /** Why every response was asked for again, when it was. */
  full: string | null;
  problems: Problem[];
}

export interface DevSession {
  url: string;
  /** Rebuilds now for these paths (relative to the content directory), as the watcher does. */
  rebuild(paths: string[]): Promise<RebuildReport>;
  /** Resolves with the report of the next rebuild the watcher starts. */
  nextRebuild(): Promise<RebuildReport>;
  /** Resolves once no rebuild runs or waits (every change so far is in the output, artifacts included). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const RELOAD_PATH = '/_folio/dev/reload.js';
const EVENTS_PATH = '/_folio/dev/events';
const FOLDERS = new Set(['services', 'posts', 'projects']);
const SHOWN_FILES = 8;
/** Quiet time (no request) that open pages get to reload before the artifacts (search index, host files) take the thread, and its limit. */
const RELOAD_GRACE_MS = 150;
const MAX_GRACE_MS = 5000;

/** The client half of live reload: reload when this page's path, or the stylesheet, changed. */
const RELOAD_SCRIPT = `// folio dev live reload (never part of a build)
(() => {
  const here = decodeURI(location.pathname.replace(/\\/$/, '') || '/');
  const events = new EventSource(${JSON.stringify(EVENTS_PATH)});
  events.onopen = () => (document.documentElement.dataset.folioDev = 'connected');
  events.addEventListener('change', (e) => {
    const { all, targets } = JSON.parse(e.data);
    if (all || targets.some((t) => t === here || t === here + '.md' || t.endsWith('.css'))) location.reload();
  });
})();
`;

/** Adds 'self' to script-src and connect-src, the least a same-origin script and its event stream need. */
export function devPolicy(policy: string): string {
  const directives = policy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  for (const name of ['script-src', 'connect-src']) {
    const i = directives.findIndex((d) => d.split(/\s+/)[0] === name);
    if (i === -1) directives.push(`${name} 'self'`);
    else if (!directives[i]!.split(/\s+/).includes("'self'")) directives[i] = `${directives[i]} 'self'`;
  }
  return directives.join('; ');
}

/** The page as the dev server sends it: the reload script added, the policy widened for it. */
export function withLiveReload(html: string): string {
  const tag = `<script src="${RELOAD_PATH}" defer></script>`;
  const page = html.replace(
    /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/i,
    (_, open: string, policy: string, close: string) => `${open}${escapeAttribute(devPolicy(unescapeAttribute(policy)))}${close}`,
  );
  return page.includes('</body>') ? page.replace('</body>', `${tag}\n</body>`) : `${page}${tag}`;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&lt;': '<', '&gt;': '>' };

function unescapeAttribute(s: string): string {
  return s.replace(/&(?:amp|quot|#39|#x27|lt|gt);/g, (e) => ENTITIES[e]!);
}

function escapeAttribute(s: string): string {
  return s.replace(/[&"'<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;' })[c]!);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function problemsPage(problems: Problem[]): string {
  const items = problems.map((p) => `<li><code>${escapeHtml(`${p.file}:${p.line}:${p.column}`)}</code>: ${escapeHtml(p.message)}<br><small>hint: ${escapeHtml(p.hint)}</small></li>`).join('\n');
  return withLiveReload(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>folio dev: content problems</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}code{font-weight:600}li{margin:.75rem 0}</style></head>
<body><h1>The content has ${problems.length} problem${problems.length === 1 ? '' : 's'}</h1>
<p>Fix ${problems.length === 1 ? 'it' : 'them'} and save: this page reloads when the site builds again. The output directory still holds the last good build.</p>
<ol>${items}</ol></body></html>`);
}

/** Writes each file through a temporary name, so a reader never sees half of it. */
function inPlaceSink(out: string) {
  return {
    async write(path: string, body: Uint8Array | string) {
      const full = join(out, path);
      await mkdir(dirname(full), { recursive: true });
      const tmp = `${full}.folio-dev-${process.pid}`;
      await writeFile(tmp, body);
      await rename(tmp, full);
    },
    reuse: async () => undefined,
  };
}

async function removeFile(out: string, path: string): Promise<void> {
  await rm(join(out, path), { force: true });
  // Empty folders go too, as a clean build would not have them.
  for (let dir = dirname(join(out, path)); dir.startsWith(out + '/') && dir !== out; dir = dirname(dir)) {
    if (!(await rmdir(dir).then(() => true, () => false))) break;
  }
}

function sourceFiles(sources: ContentSources): Map<string, string> {
  const all = [sources.site, sources.profile, ...sources.services, ...sources.posts, ...sources.projects].filter((s): s is Source => s !== null);
  return new Map(all.map((s) => [s.file, s.text]));
}

function sameSources(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [file, text] of a) if (b.get(file) !== text) return false;
  return true;
}

export async function startDev(options: DevOptions): Promise<DevSession> {
  const out = resolve(options.out);
  const p = paint(options.color ?? false);
  const log = options.log;
  const cacheDir = options.cache || null;
  const records = cacheDir ? await RecordCache.open(cacheDir) : null;
  const memo = new WeakMap<Source, Remembered>();
  let sources = await loadContent(options.content);
  let state: BuildState | null = null;
  let problems: Problem[] = [];
  let stateSaved = false;

  // ----- the build -----

  const report = (started: number, before: Map<string, string>, partial: Partial<RebuildReport>): RebuildReport => {
    const after = sourceFiles(sources);
    return {
      ok: problems.length === 0,
      ms: performance.now() - started,
      sources: {
        added: [...after.keys()].filter((f) => !before.has(f)),
        changed: [...after].filter(([f, t]) => before.has(f) && before.get(f) !== t).map(([f]) => f),
        removed: [...before.keys()].filter((f) => !after.has(f)),
      },
      files: { added: [], changed: [], removed: [] },
      targets: [],
      full: null,
      problems,
      ...partial,
    };
  };

  const fullBuild = async (started: number, before: Map<string, string>): Promise<RebuildReport> => {
    try {
      const result = await build({ content: options.content, out, now: options.now, siteUrl: options.siteUrl, cache: options.cache, workers: options.workers, records: records ?? undefined, sources, memo });
      state = result.state;
      stateSaved = cacheDir !== null;
      problems = [];
      return report(started, before, { full: result.stats.full, files: { added: result.stats.written, changed: [], removed: [] }, targets: [...state.routes.keys()] });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems = error.problems;
      return report(started, before, {});
    }
  };

  /** The responses, the model and the manifest; `later` writes the artifacts (search index, host files) and completes the report. */
  const rebuildInPlace = async (started: number, before: Map<string, string>): Promise<{ report: RebuildReport; later?: () => Promise<string[]>; skip?: () => void }> => {
    const previous = state!;
    const read = await readContentFast(sources, { cache: records, memo, workers: options.workers });
    let site;
    try {
      site = assembleSite(read.content, { now: options.now, siteUrl: options.siteUrl });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems = error.problems;
      return { report: report(started, before, {}) };
    }
    problems = [];
    const plan = planBuild(previous.digest, digestSite(site));
    // The saved state describes the output only while the output is whole.
    if (cacheDir && stateSaved) {
      await forgetState(cacheDir, out);
      stateSaved = false;
    }
    const emitted = await emit(site, inPlaceSink(out), { previous, plan, deferArtifacts: true });
    state = emitted.state;
    const earlier = new Set([...[...previous.routes.values()].map((r) => r.file), ...previous.extras.keys()]);
    const written = new Set(emitted.written);
    const targets = [...state.routes].filter(([, r]) => written.has(r.file)).map(([t]) => t);
    // Responses that are gone go now; artifacts that are gone, once the artifacts ran.
    const gone = [...emitted.removed];
    await Promise.all(gone.map((f) => removeFile(out, f)));
    const r = report(started, before, {
      full: plan.all ? plan.reason : null,
      files: { added: emitted.written.filter((f) => !earlier.has(f)), changed: emitted.written.filter((f) => earlier.has(f)), removed: gone },
      targets,
    });
    const later = async () => {
      const more = await emitted.artifacts!();
      const alsoGone = emitted.removed.slice(gone.length);
      await Promise.all(alsoGone.map((f) => removeFile(out, f)));
      r.files.added.push(...more.filter((f) => !earlier.has(f)));
      r.files.changed.push(...more.filter((f) => earlier.has(f)));
      r.files.removed.push(...alsoGone);
      r.totalMs = performance.now() - started;
      return more;
    };
    // Another change is waiting: its rebuild writes the artifacts instead. Until
    // then the previous ones are on disk, and the state must say so.
    const skip = () => {
      for (const [file, entry] of previous.extras) if (!emitted.state.extras.has(file)) emitted.state.extras.set(file, entry);
    };
    return { report: r, later, skip };
  };

  // ----- the servers -----

  let inner: Awaited<ReturnType<typeof startServer>> | null = null;
  const restartInner = async () => {
    const next = await startServer({ dir: out, port: 0, host: '127.0.0.1' }).catch(() => null);
    const old = inner;
    inner = next;
    await old?.close();
  };

  const clients = new Set<ServerResponse>();
  const broadcast = (data: unknown) => {
    for (const res of clients) res.write(`event: change\ndata: ${JSON.stringify(data)}\n\n`);
  };

  const proxy = (req: IncomingMessage, res: ServerResponse) => {
    const target = inner;
    if (!target) {
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(problems.length ? problemsPage(problems) : withLiveReload('<!doctype html><title>folio dev</title><p>No build yet.</p>'));
      return;
    }
    const url = new URL(target.url);
    // Each reply is read whole before it is sent on: a request caught by a
    // restart of the inner server then gets a clean 502, never half a body,
    // and nothing is ever written to a reply that has ended.
    let settled = false;
    const send = (status: number, headers: Record<string, string | string[] | undefined>, body: Buffer | string | undefined) => {
      if (settled) return;
      settled = true;
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const restarted = () => send(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, 'folio dev: the site server restarted; reload the page.');
    const upstream = httpRequest({ host: url.hostname, port: url.port, method: req.method, path: req.url, headers: { ...req.headers, host: url.host }, agent: false }, (reply) => {
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
    });
    upstream.on('error', restarted);
    // A client that went away is no reason to stop the dev server.
    res.on('error', () => undefined);
    req.pipe(upstream);
  };

  let lastRequest = 0;
  const front = createServer((req, res) => {
    lastRequest = performance.now();
    const path = (req.url ?? '/').split('?')[0];
    if (path === EVENTS_PATH) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write('retry: 500\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    if (path === RELOAD_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(RELOAD_SCRIPT);
      return;
    }
    if (problems.length && (req.method === 'GET' || req.method === 'HEAD') && /text\/html/.test(req.headers.accept ?? '')) {
      res.writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : problemsPage(problems));
      return;
    }
    proxy(req, res);
  });

  // ----- the loop: one rebuild at a time, events in between are batched -----

  const printReport = (r: RebuildReport, trigger: string) => {
    const time = new Date().toTimeString().slice(0, 8);
    if (!r.ok) {
      log(`${p.dim(time)} ${trigger} → ${p.red(`${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}`)}; still serving the last good build`);
      for (const problem of r.problems) log(`  ${problem.file}:${problem.line}:${problem.column}: ${problem.message}\n    hint: ${problem.hint}`);
      return;
    }
    const { added, changed, removed } = r.files;
    const counts = `${changed.length} changed, ${added.length} added, ${removed.length} removed`;
    log(`${p.dim(time)} ${trigger} → ${counts} in ${Math.round(r.ms)} ms${r.full ? p.dim(` (every response asked: ${r.full})`) : ''}`);
    const lines = [...added.map((f) => p.green(`  + ${f}`)), ...changed.map((f) => p.yellow(`  ~ ${f}`)), ...removed.map((f) => p.red(`  - ${f}`))];
    for (const line of lines.slice(0, SHOWN_FILES)) log(line);
    if (lines.length > SHOWN_FILES) log(p.dim(`  … and ${lines.length - SHOWN_FILES} more`));
  };

  let saveTimer: NodeJS.Timeout | null = null;
  const persist = async () => {
    saveTimer = null;
    if (!cacheDir) return;
    await records?.save();
    if (state && !stateSaved && problems.length === 0) {
      await saveState(cacheDir, out, state);
      stateSaved = true;
    }
  };

  let running: Promise<unknown> = Promise.resolve();
  const waiting: { resolve(r: RebuildReport): void; reject(error: unknown): void }[] = [];
  let queued = 0;
  // Set while the artifacts on disk are older than the responses (a rebuild left them to the next one).
  let artifactsBehind = false;
  const changesWaiting = () => queued > 0 || pending.size > 0 || timer !== null;
  const rebuild = (paths: string[]): Promise<RebuildReport> => {
    queued++;
    const job = running.then(async () => {
      queued--;
      const started = performance.now();
      const before = sourceFiles(sources);
      const hadState = state !== null;
      let reloadAll = false;
      for (const path of paths) {
        const next = FOLDERS.has(path) ? null : await reloadFile(sources, path).catch(() => null);
        if (next) sources = next;
        else if (FOLDERS.has(path) || path === '') reloadAll = true;
      }
      if (reloadAll) sources = await loadContent(options.content);
      // Editors and fs.watch often report one save twice: the second finds nothing new.
      // Unless a skipped rebuild left its artifacts to this one.
      if (state && problems.length === 0 && !artifactsBehind && sameSources(before, sourceFiles(sources))) return report(started, before, {});
      const { report: r, later, skip } = state ? await rebuildInPlace(started, before) : { report: await fullBuild(started, before), later: undefined, skip: undefined };
      const trigger = [...r.sources.added.map((f) => `${f} added`), ...r.sources.changed.map((f) => `${f} changed`), ...r.sources.removed.map((f) => `${f} removed`)].join(', ') || 'no content change';
      printReport(r, trigger);
      if (r.files.added.length + r.files.changed.length + r.files.removed.length > 0 || !hadState) await restartInner();
      broadcast(r.targets.length > 500 || !r.ok || !hadState ? { all: true, targets: [] } : { all: false, targets: r.targets });
      if (later) {
        // The pages are served already; the search index and the host files
        // follow. They keep this thread busy for a while, so first let open
        // pages fetch what they were just told changed: wait until no request
        // has come for a moment (at most a few seconds).
        const waitFrom = performance.now();
        do await new Promise((resolve) => setTimeout(resolve, RELOAD_GRACE_MS));
        while (performance.now() - lastRequest < RELOAD_GRACE_MS && performance.now() - waitFrom < MAX_GRACE_MS && !changesWaiting());
        if (changesWaiting()) {
          skip!();
          artifactsBehind = true;
        } else {
          const more = await later();
          artifactsBehind = false;
          if (more.length) {
            log(p.dim(`  then ${more.length} artifact file${more.length === 1 ? '' : 's'} (search index, host files) in ${Math.round(r.totalMs! - r.ms)} ms`));
            await restartInner();
          }
        }
      }
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = setTimeout(() => void persist(), 1000);
      for (const w of waiting.splice(0)) w.resolve(r);
      return r;
    });
    running = job.catch((error) => {
      for (const w of waiting.splice(0)) w.reject(error);
    });
    return job;
  };

  // ----- start -----

  const started = performance.now();
  const first = await fullBuild(started, new Map());
  if (first.ok) {
    const s = first.full ? `${first.files.added.length} files written` : `${first.files.added.length} files changed since the last build`;
    log(`folio dev: built ${relative(process.cwd(), out) || out}/ in ${Math.round(first.ms)} ms (${s})`);
  } else printReport(first, 'first build');
  saveTimer = setTimeout(() => void persist(), 1000);
  await restartInner();
  if (!inner && first.ok) throw new Error(`folio dev: ${join(options.out, MANIFEST_PATH)} is missing after the build.`);
  await new Promise<void>((ok, fail) => {
    front.once('error', fail);
    front.listen(options.port, options.host, () => ok());
  });
  const address = front.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;

  let timer: NodeJS.Timeout | null = null;
  const pending = new Set<string>();
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(options.content, { recursive: true }, (_event, name) => {
      pending.add(name ? String(name) : '');
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        const paths = [...pending];
        pending.clear();
        void rebuild(paths).catch((error) => log(p.red(`folio dev: the rebuild failed: ${(error as Error).message}`)));
      }, options.debounceMs ?? 40);
    });
    watcher.on('error', (error) => log(p.red(`folio dev: watching ${options.content} failed: ${error.message}`)));
  } catch (error) {
    log(p.red(`folio dev: cannot watch ${options.content} (${(error as Error).message}); changes will not rebuild.`));
  }
  log(`folio dev: serving at ${url} — watching ${options.content}/ (Ctrl-C to stop)`);

  return {
    url,
    rebuild,
    nextRebuild: () => new Promise((resolve, reject) => waiting.push({ resolve, reject })),
    async idle() {
      for (;;) {
        await running;
        if (!changesWaiting()) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      watcher?.close();
      if (timer) clearTimeout(timer);
      await running;
      if (saveTimer) clearTimeout(saveTimer);
      await persist();
      for (const res of clients) res.end();
      clients.clear();
      const closed = new Promise<void>((ok) => front.close(() => ok()));
      front.closeAllConnections();
      await closed;
      await inner?.close();
    },
  };
}
