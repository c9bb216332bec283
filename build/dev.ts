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
import { contentFileExists, loadContent, reloadFile, type ContentSources } from './content/load.js';
import { readDocument } from './content/kinds.js';
import { ContentError, type Problem } from './content/problems.js';
import { fileFor, MANIFEST_PATH } from './core/files.js';
import { request, type Headers } from './core/http.js';
import type { Site } from './core/model.js';
import { respond } from './core/respond.js';
import { build, collectGarbage, emit, memoryRuntime, staticReader } from './emit/build.js';
import { forgetState, RecordCache, saveState } from './emit/cache.js';
import { readContentFast, type Remembered } from './emit/documents.js';
import { digestSite, ownerOf, pendingDigest, planBuild, planEdit, updateDigest, type BuildState, type OutputRecord, type Plan } from './emit/incremental.js';
import { paint } from './progress.js';
import { startServer, type RunningServer } from './serve.js';
import { assembleSite, updateSite, type ReadContent } from './site.js';

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
const FOLDER_NAMES = ['services', 'posts', 'projects'] as const;
const FOLDERS = new Set<string>(FOLDER_NAMES);
/** Watched one level deep besides the content folders: content/static/ (D43). */
const WATCHED = [...FOLDER_NAMES, 'static'];
const SHOWN_FILES = 8;
/**
 * Quiet time after a file event before the rebuild starts. An editor's save
 * (a write, or a write to a temporary file and a rename) reports its events
 * within a millisecond; a later event starts another rebuild, which finds
 * what changed since. Every millisecond here is one more before the edit
 * is served (the target is 100 ms at 10,000 posts, issue 7).
 */
const DEBOUNCE_MS = 10;
/** Posts rendered once in this thread at the start, to have the renderer compiled before the first edit. */
const WARM_UP_POSTS = 200;
/** Quiet time after the last rebuild before the cache and the build state are saved. */
const SAVE_DELAY_MS = 2000;
/** Quiet time (no request) that open pages get to reload before the shared responses, then the artifacts (search index, host files), take the thread; and its limit. */
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

/**
 * Content files added, changed (other text) and removed between two loads.
 * A file not read again keeps its Source, so only the lists that changed
 * are compared file by file.
 */
function diffSources(a: ContentSources, b: ContentSources): RebuildReport['sources'] {
  const diff: RebuildReport['sources'] = { added: [], changed: [], removed: [] };
  const pair = (x: Source | null, y: Source | null) => {
    if (x === y) return;
    if (x && y && x.file === y.file) {
      if (x.text !== y.text) diff.changed.push(y.file);
      return;
    }
    if (x) diff.removed.push(x.file);
    if (y) diff.added.push(y.file);
  };
  pair(a.site, b.site);
  pair(a.profile, b.profile);
  pair(a.theme ?? null, b.theme ?? null);
  if (a.static !== b.static) {
    const before = new Map((a.static ?? []).map((f) => [f.path, f]));
    const after = new Map((b.static ?? []).map((f) => [f.path, f]));
    for (const [path, f] of after) {
      const old = before.get(path);
      if (!old) diff.added.push(f.file);
      else if (old.size !== f.size || !old.body || !f.body || Buffer.compare(old.body, f.body) !== 0) diff.changed.push(f.file);
    }
    for (const [path, f] of before) if (!after.has(path)) diff.removed.push(f.file);
  }
  for (const folder of FOLDER_NAMES) {
    const xs = a[folder];
    const ys = b[folder];
    if (xs === ys) continue;
    if (xs.length === ys.length && xs.every((x, i) => x.file === ys[i]!.file)) {
      xs.forEach((x, i) => pair(x, ys[i]!));
      continue;
    }
    const old = new Map(xs.map((x) => [x.file, x]));
    const now = new Set(ys.map((y) => y.file));
    for (const y of ys) {
      const x = old.get(y.file);
      if (!x) diff.added.push(y.file);
      else pair(x, y);
    }
    for (const x of xs) if (!now.has(x.file)) diff.removed.push(x.file);
  }
  return diff;
}

/**
 * Watches the content directory and each of its folders, one level each,
 * and reports changed paths relative to the directory ('posts/x.md', or a
 * folder's name when it came or went). Content lives no deeper. A recursive
 * fs.watch would do the same, but on Linux Node 20 emulates it with a
 * watcher per entry, and at 10,000 posts an event then arrived 40 to 90 ms
 * after the write instead of under 1 ms.
 */
function watchContent(dir: string, changed: (path: string) => void, failed: (error: Error) => void): { close(): void } {
  const folders = new Map<string, FSWatcher>();
  const attach = (folder: string) => {
    folders.get(folder)?.close();
    folders.delete(folder);
    try {
      const w = watch(join(dir, folder), (_event, name) => changed(name ? `${folder}/${String(name)}` : folder));
      // The folder went away: the directory's own watcher reports it, and attaches it again if it comes back.
      w.on('error', () => w.close());
      folders.set(folder, w);
    } catch {
      // Not there (yet).
    }
  };
  const top = watch(dir, (_event, name) => {
    const path = name ? String(name) : '';
    if (WATCHED.includes(path)) attach(path);
    changed(path);
  });
  top.on('error', failed);
  for (const folder of WATCHED) attach(folder);
  return {
    close() {
      top.close();
      for (const w of folders.values()) w.close();
    },
  };
}

/** The posts whose sources changed, by index, when nothing else did and no file came or went; else null. */
function changedPosts(a: ContentSources, b: ContentSources): { index: number; source: Source }[] | null {
  if (a.site !== b.site || a.profile !== b.profile || a.theme !== b.theme || a.static !== b.static || a.services !== b.services || a.projects !== b.projects || a.posts.length !== b.posts.length) return null;
  const changed: { index: number; source: Source }[] = [];
  for (let i = 0; i < b.posts.length; i++) {
    if (a.posts[i] === b.posts[i]) continue;
    if (a.posts[i]!.file !== b.posts[i]!.file) return null;
    changed.push({ index: i, source: b.posts[i]! });
  }
  return changed;
}

/** Each post's own targets (its page, twin and API record) among these routes. */
function ownersOf(routes: Map<string, OutputRecord>): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const target of routes.keys()) {
    const slug = ownerOf(target);
    if (slug === null) continue;
    const list = owners.get(slug);
    if (list) list.push(target);
    else owners.set(slug, [target]);
  }
  return owners;
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
  /** The records and the model the responses on disk were made from, for the next edit of a post's body. */
  let model: { content: ReadContent; site: Site } | null = null;
  /** Each post's own targets, for the routes of the last full rebuild. */
  let owners: Map<string, string[]> | null = null;

  // ----- the build -----

  const report = (started: number, before: ContentSources, partial: Partial<RebuildReport>): RebuildReport => ({
    ok: problems.length === 0,
    ms: performance.now() - started,
    sources: diffSources(before, sources),
    files: { added: [], changed: [], removed: [] },
    targets: [],
    full: null,
    problems,
    ...partial,
  });

  const fullBuild = async (started: number, before: ContentSources): Promise<RebuildReport> => {
    model = null;
    owners = null;
    try {
      const result = await build({ content: options.content, out, now: options.now, siteUrl: options.siteUrl, cache: options.cache, workers: options.workers, records: records ?? undefined, sources, memo });
      state = result.state;
      stateSaved = cacheDir !== null;
      problems = [];
      model = { content: result.content, site: result.site };
      return report(started, before, { full: result.stats.full, files: { added: result.stats.written, changed: [], removed: [] }, targets: [...state.routes.keys()] });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems = error.problems;
      return report(started, before, {});
    }
  };

  const forgetSavedState = async () => {
    // The saved state describes the output only while the output is whole.
    if (cacheDir && stateSaved) {
      await forgetState(cacheDir, out);
      stateSaved = false;
    }
  };

  /**
   * Every response the plan asks for, the model and the manifest; `later`
   * writes the artifacts (search index, host files) and completes the report.
   */
  const emitInPlace = async (site: Site, previous: BuildState, plan: Plan, r: RebuildReport, digest?: ReturnType<typeof digestSite>): Promise<{ later: () => Promise<string[]>; skip: () => void }> => {
    const emitted = await emit(site, inPlaceSink(out), { previous, plan, deferArtifacts: true, digest, readStatic: staticReader(options.content, sources) });
    state = emitted.state;
    const earlier = new Set([...[...previous.routes.values()].map((o) => o.file), ...previous.extras.keys()]);
    const written = new Set(emitted.written);
    const shown = new Set(r.targets);
    r.targets.push(...[...emitted.state.routes].filter(([t, o]) => written.has(o.file) && !shown.has(t)).map(([t]) => t));
    // Responses that are gone go now; artifacts that are gone, once the artifacts ran.
    const gone = [...emitted.removed];
    await Promise.all(gone.map((f) => removeFile(out, f)));
    r.files.added.push(...emitted.written.filter((f) => !earlier.has(f)));
    r.files.changed.push(...emitted.written.filter((f) => earlier.has(f)));
    r.files.removed.push(...gone);
    const later = async () => {
      const more = await emitted.artifacts!();
      const alsoGone = emitted.removed.slice(gone.length);
      await Promise.all(alsoGone.map((f) => removeFile(out, f)));
      r.files.added.push(...more.filter((f) => !earlier.has(f)));
      r.files.changed.push(...more.filter((f) => earlier.has(f)));
      r.files.removed.push(...alsoGone);
      return more;
    };
    // Another change is waiting: its rebuild writes the artifacts instead. Until
    // then the previous ones are on disk, and the state must say so.
    const skip = () => {
      for (const [file, entry] of previous.extras) if (!emitted.state.extras.has(file)) emitted.state.extras.set(file, entry);
    };
    return { later, skip };
  };

  /** Any change: read what changed, assemble the whole model, and ask for every response the plan names. */
  const rebuildInPlace = async (started: number, before: ContentSources): Promise<{ report: RebuildReport; later?: () => Promise<string[]>; skip?: () => void }> => {
    const previous = state!;
    model = null;
    owners = null;
    const read = await readContentFast(sources, { cache: records, memo, workers: options.workers });
    let site;
    try {
      site = assembleSite(read.content, { now: options.now, siteUrl: options.siteUrl, exists: contentFileExists(options.content) });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems = error.problems;
      return { report: report(started, before, {}) };
    }
    problems = [];
    const plan = planBuild(previous.digest, digestSite(site));
    await forgetSavedState();
    const r = report(started, before, { full: plan.all ? plan.reason : null });
    const { later, skip } = await emitInPlace(site, previous, plan, r);
    model = { content: read.content, site };
    r.ms = performance.now() - started;
    return { report: r, later, skip };
  };

  /**
   * An edit of posts that keeps every address and the order (a body, a
   * title): render those files, take the rest of the model as it was
   * (updateSite), and answer and write those posts' own targets (page,
   * twin, API record) before anything else. They are served
   * as soon as they are on disk: their routes and headers are the ones the
   * server has. `rest` then asks for the shared responses (lists, tag
   * pages, feeds, llms files, sitemap), the model and the manifest, exactly
   * as rebuildInPlace would; until it ran, the state says those posts are
   * pending, so whichever rebuild comes next asks for the shared responses.
   * Null when the change is not such an edit (nothing is written then).
   */
  const quickRebuild = async (started: number, before: ContentSources): Promise<{ report: RebuildReport; rest: () => Promise<{ later: () => Promise<string[]>; skip: () => void }>; skip: () => void } | null> => {
    const previous = state;
    const known = model;
    const changed = previous && known && problems.length === 0 ? changedPosts(before, sources) : null;
    if (!previous || !known || !changed?.length) return null;
    const read = await readContentFast({ dir: sources.dir, site: null, profile: null, services: [], posts: changed.map((c) => c.source), projects: [] }, { cache: records, memo, workers: 0 });
    const posts = known.content.posts.slice();
    changed.forEach((c, n) => (posts[c.index] = read.content.posts[n]!));
    const content: ReadContent = { ...known.content, posts };
    let update;
    try {
      update = updateSite(known.site, known.content, content);
    } catch (error) {
      // A broken link: the whole check reports it, with every other problem.
      if (error instanceof ContentError) return null;
      throw error;
    }
    if (!update) return null;
    // A listed field (a title, a reading time) shows on other pages too: every
    // response is asked for after this post's own, but they still come first.
    const plan = planEdit(previous.digest, update.posts);
    owners ??= ownersOf(previous.routes);
    const rt = memoryRuntime(update.site);
    const sink = inPlaceSink(out);
    const answers: { target: string; record: OutputRecord }[] = [];
    const fresh: { target: string; record: OutputRecord }[] = [];
    // A twin's token estimate follows its body: its header set may be new.
    const headerSets = previous.headerSets.slice();
    const sameBesidesTokens = (a: Headers, b: Headers) => JSON.stringify({ ...a, 'x-markdown-tokens': '' }) === JSON.stringify({ ...b, 'x-markdown-tokens': '' });
    for (const post of update.posts) {
      for (const target of owners.get(post.slug) ?? []) {
        const was = previous.routes.get(target);
        if (!was) continue;
        const reply = await respond(request('GET', target), rt);
        // Another file or other headers need the new manifest first: the whole
        // way, then (it asks again for what was written here, and gets the same).
        if (reply.status !== 200 || !reply.body) return null;
        const { etag, ...headers } = reply.headers;
        const before = previous.headerSets[was.set]!;
        if (fileFor(target, headers['content-type'] ?? '') !== was.file || !sameBesidesTokens(headers, before)) return null;
        const set = JSON.stringify(headers) === JSON.stringify(before) ? was.set : headerSets.push(headers) - 1;
        const answer = { target, record: { file: was.file, etag: etag!, set, size: reply.body.byteLength } };
        answers.push(answer);
        if (etag === was.etag) continue;
        // Each is served as soon as it is written.
        await forgetSavedState();
        await sink.write(was.file, reply.body);
        fresh.push(answer);
      }
    }
    problems = [];
    model = { content, site: update.site };
    const r = report(started, before, { full: plan.all ? plan.reason : null, files: { added: [], changed: fresh.map((a) => a.record.file), removed: [] }, targets: fresh.map((a) => a.target) });
    // What is on disk now: those posts' own responses are new, the shared ones
    // not yet. Made once the edit is served, as the other whole-site work.
    const pending = (): BuildState => {
      const routes = new Map(previous.routes);
      for (const a of answers) routes.set(a.target, a.record);
      return { ...previous, routes, headerSets, digest: pendingDigest(previous.digest, update.posts.map((post) => post.slug)) };
    };
    const rest = () => emitInPlace(update.site, pending(), plan, r, updateDigest(previous.digest, update.site, update.posts));
    return { report: r, rest, skip: () => void (state = pending()) };
  };

  // ----- the servers -----

  let inner: RunningServer | null = null;
  /** The site server takes the new manifest, model and search index: in place once it runs (no request is cut off). */
  const refreshInner = async () => {
    if (inner) {
      await inner.reload().catch((error: Error) => log(p.red(`folio dev: ${error.message}`)));
      return;
    }
    inner = await startServer({ dir: out, port: 0, host: '127.0.0.1' }).catch(() => null);
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
    // Each reply is read whole before it is sent on: a reply the site server
    // could not finish then gets a clean 502, never half a body, and nothing
    // is ever written to a reply that has ended.
    let settled = false;
    const send = (status: number, headers: Record<string, string | string[] | undefined>, body: Buffer | string | undefined) => {
      if (settled) return;
      settled = true;
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const restarted = () => send(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, 'folio dev: the site server did not finish this reply; reload the page.');
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

  // The cache and the state are saved once no rebuild has run for a while
  // (serializing them at 10,000 posts takes the thread for a moment), and
  // never while a rebuild changes the output: a rebuild waits for a save.
  let saveTimer: NodeJS.Timeout | null = null;
  let saving: Promise<void> | null = null;
  const schedulePersist = () => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      saveTimer = null;
      saving = persist().finally(() => (saving = null));
    }, SAVE_DELAY_MS);
  };
  const persist = async () => {
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
  // Set while files on disk are older than the responses (a rebuild left them to the next one).
  let artifactsBehind = false;
  const changesWaiting = () => queued > 0 || pending.size > 0 || timer !== null;
  /**
   * The served responses come first; what follows keeps this thread busy for
   * a while, so first let open pages fetch what they were just told changed:
   * wait until no request has come for a moment (at most a few seconds).
   * False when another change waits: its rebuild does the rest instead.
   */
  const quiet = async () => {
    const waitFrom = performance.now();
    do await new Promise((ok) => setTimeout(ok, RELOAD_GRACE_MS));
    while (performance.now() - lastRequest < RELOAD_GRACE_MS && performance.now() - waitFrom < MAX_GRACE_MS && !changesWaiting());
    return !changesWaiting();
  };
  const tell = (targets: string[], all: boolean) => {
    if (targets.length || all) broadcast(targets.length > 500 || all ? { all: true, targets: [] } : { all: false, targets });
  };
  const rebuild = (paths: string[]): Promise<RebuildReport> => {
    queued++;
    const job = running.then(async () => {
      queued--;
      const started = performance.now();
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = null;
      if (saving) await saving;
      const before = sources;
      const hadState = state !== null;
      let reloadAll = false;
      for (const path of paths) {
        const next = FOLDERS.has(path) ? null : await reloadFile(sources, path).catch(() => null);
        if (next) sources = next;
        else if (FOLDERS.has(path) || path === '') reloadAll = true;
      }
      if (reloadAll) sources = await loadContent(options.content);
      const diff = diffSources(before, sources);
      // Editors and fs.watch often report one save twice: the second finds nothing new.
      // Unless a skipped rebuild left its artifacts to this one.
      if (state && problems.length === 0 && !artifactsBehind && diff.added.length + diff.changed.length + diff.removed.length === 0) return report(started, before, {});
      const quick = state ? await quickRebuild(started, before) : null;
      const { report: r, later, skip } = quick ? { report: quick.report, later: undefined, skip: undefined } : state ? await rebuildInPlace(started, before) : { report: await fullBuild(started, before), later: undefined, skip: undefined };
      const trigger = [...r.sources.added.map((f) => `${f} added`), ...r.sources.changed.map((f) => `${f} changed`), ...r.sources.removed.map((f) => `${f} removed`)].join(', ') || 'no content change';
      printReport(r, trigger);
      const wrote = () => r.files.added.length + r.files.changed.length + r.files.removed.length;
      const first = wrote();
      // A rebuild that only rewrote files under the same routes needs nothing of the server.
      if (!quick && (wrote() > 0 || !hadState)) await refreshInner();
      tell(r.targets, !r.ok || !hadState);
      const shown = r.targets.length;
      let after: { later: () => Promise<string[]>; skip: () => void } | undefined = later && skip ? { later, skip } : undefined;
      let done = true;
      if (quick) {
        if (!(await quiet())) {
          quick.skip();
          done = false;
        } else {
          after = await quick.rest();
          await refreshInner();
          tell(r.targets.slice(shown), false);
        }
      }
      if (after && done) {
        if (!(await quiet())) {
          after.skip();
          done = false;
        } else {
          const more = await after.later();
          if (more.length) await refreshInner();
        }
      }
      if (quick || after) {
        artifactsBehind = !done;
        r.totalMs = done ? performance.now() - started : undefined;
        if (done) {
          const more = wrote() - first;
          log(p.dim(`  then ${more} more file${more === 1 ? '' : 's'} (lists, feeds, model, manifest, search index, host files) in ${Math.round(r.totalMs! - r.ms)} ms`));
        } else log(p.dim('  another change is waiting: the lists, feeds, search index and host files are left to its rebuild'));
      }
      // Ready for the next edit of a post (ownersOf walks every route), with
      // an empty young generation: at 10,000 posts each scavenge during an
      // edit took 15 to 40 ms of it.
      if (state && !owners) owners = ownersOf(state.routes);
      if (r.ok) collectGarbage('minor');
      schedulePersist();
      for (const w of waiting.splice(0)) w.resolve(r);
      return r;
    });
    running = job.catch((error) => {
      for (const w of waiting.splice(0)) w.reject(error);
    });
    return job;
  };

  /**
   * The first build rendered in workers or took the cache, so this thread has
   * never run the Markdown renderer, and cold it took about 30 ms for one
   * post of 2 kB. Rendering some posts here (results thrown away), one per
   * turn of the event loop and only while nothing else waits, gets it
   * compiled before the first edit.
   */
  let closing = false;
  const warmUp = async () => {
    const posts = sources.posts.slice(0, WARM_UP_POSTS);
    for (const source of posts) {
      await new Promise((ok) => setImmediate(ok));
      if (queued > 0 || changesWaiting() || closing) return;
      readDocument('post', source);
    }
  };

  // ----- start -----

  const started = performance.now();
  const first = await fullBuild(started, { dir: sources.dir, site: null, profile: null, services: [], posts: [], projects: [] });
  if (first.ok) {
    const s = first.full ? `${first.files.added.length} files written` : `${first.files.added.length} files changed since the last build`;
    log(`folio dev: built ${relative(process.cwd(), out) || out}/ in ${Math.round(first.ms)} ms (${s})`);
  } else printReport(first, 'first build');
  const built = state as BuildState | null;
  if (built) owners = ownersOf(built.routes);
  schedulePersist();
  await refreshInner();
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
  let watcher: { close(): void } | null = null;
  try {
    watcher = watchContent(
      options.content,
      (path) => {
        pending.add(path);
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          timer = null;
          const paths = [...pending];
          pending.clear();
          void rebuild(paths).catch((error) => log(p.red(`folio dev: the rebuild failed: ${(error as Error).message}`)));
        }, options.debounceMs ?? DEBOUNCE_MS);
      },
      (error) => log(p.red(`folio dev: watching ${options.content} failed: ${error.message}`)),
    );
  } catch (error) {
    log(p.red(`folio dev: cannot watch ${options.content} (${(error as Error).message}); changes will not rebuild.`));
  }
  void warmUp();
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
      closing = true;
      watcher?.close();
      if (timer) clearTimeout(timer);
      await running;
      if (saveTimer) clearTimeout(saveTimer);
      await saving;
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
