// folio dev (D1): build, serve, watch content/, rebuild incrementally on every
// change and print what changed; open pages reload when their bytes change.
//
// The output directory holds exactly what `folio build` would write (the
// incremental rebuild is compared with a clean build in the tests). The only
// dev-only parts live in the dev server (dev/server.ts, dev/live-reload.ts),
// added to responses as they pass; nothing of them is written to the output.
//
// This module runs the loop: one rebuild at a time, file events in between
// batched (dev/watcher.ts); the planner picks each rebuild's way
// (dev/planner.ts), dev/rebuild.ts and dev/writer.ts make it, dev/reporter.ts
// prints it, and the state that crosses rebuilds is one DevState.
import { join, relative, resolve } from 'node:path';
import { loadContent } from './content/load.js';
import { readDocument } from './content/kinds.js';
import { MANIFEST_PATH } from './core/files.js';
import { collectGarbage } from './emit/gc.js';
import { lockOutput } from './emit/output-lock.js';
import { RecordCache } from './emit/record-cache.js';
import { choosePath, heldPosts, imagesMayMove, ownersOf, readChanges } from './dev/planner.js';
import { fullBuild, incrementalRebuild, postEdit, report } from './dev/rebuild.js';
import { saver } from './dev/persist.js';
import { reporter } from './dev/reporter.js';
import { startDevServer } from './dev/server.js';
import { devContext, emptySources, initialState, type DevOptions, type DevState, type RebuildReport } from './dev/state.js';
import { DEBOUNCE_MS, watchBatches, type Batcher } from './dev/watcher.js';
import { outputIntact, type Deferred } from './dev/writer.js';

export { devPolicy, withLiveReload } from './dev/live-reload.js';
export type { DevOptions, RebuildReport } from './dev/state.js';

export interface DevSession {
  url: string;
  /** Rebuilds for these paths (relative to the content directory, a folder with a slash) as the watcher does: once the running rebuild is done, together with the batches that come meanwhile. */
  rebuild(paths: string[]): Promise<RebuildReport>;
  /** Resolves with the report of the next rebuild the watcher starts. */
  nextRebuild(): Promise<RebuildReport>;
  /** Resolves once no rebuild runs or waits (every change so far is in the output, artifacts included). */
  idle(): Promise<void>;
  /** Stops watching, writes the rebuild in progress whole (waiting for no open page), saves the cache and stops serving. */
  close(): Promise<void>;
}

/** Posts rendered once in this thread at the start, to have the renderer compiled before the first edit. */
const WARM_UP_POSTS = 200;
/** Quiet time (no request) that open pages get to reload before the shared responses, then the artifacts (search index, host files), take the thread; and its limit. */
const RELOAD_GRACE_MS = 150;
const MAX_GRACE_MS = 5000;

export async function startDev(options: DevOptions): Promise<DevSession> {
  // The session alone writes the output while it runs: another folio dev or a folio build is refused (its own builds take the same lock).
  const unlock = lockOutput(resolve(options.out), 'folio dev', { create: true });
  try {
    return await session(options, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

async function session(options: DevOptions, unlock: () => void): Promise<DevSession> {
  const ctx = devContext(options, options.cache ? await RecordCache.open(options.cache) : null);
  const { out } = ctx;
  const state: DevState = initialState(await loadContent(options.content));
  const print = reporter(options.log, options.color ?? false, options.now);
  let batcher: Batcher | null = null;
  let queued = 0;
  let closing = false;
  const changesWaiting = () => queued > 0 || (batcher?.waiting() ?? false);

  const saves = saver(ctx, state);

  /**
   * The served responses come first; what follows keeps this thread busy for
   * a while, so first let open pages fetch what they were just told changed:
   * wait until no request has come for a moment (at most a few seconds).
   * False when another change waits: its rebuild does the rest instead.
   * A session that is stopping waits for no page: the output is made whole
   * at once.
   */
  const quiet = async () => {
    const waitFrom = performance.now();
    while (!closing) {
      await new Promise((ok) => setTimeout(ok, RELOAD_GRACE_MS));
      if (
        performance.now() - server.lastRequest() >= RELOAD_GRACE_MS ||
        performance.now() - waitFrom >= (options.maxGraceMs ?? MAX_GRACE_MS) ||
        changesWaiting()
      )
        break;
    }
    return !changesWaiting();
  };

  /** The artifacts of a rebuild, once open pages have reloaded: written, or left to the next rebuild (false). */
  const finish = async (deferred: Deferred): Promise<boolean> => {
    if (!(await quiet())) return (deferred.skip(), false);
    if ((await deferred.later()).length) await server.refresh();
    return true;
  };

  /** The rebuild for a batch of paths, or null when they hold nothing new. */
  const runRebuild = async (paths: string[]): Promise<RebuildReport | null> => {
    const started = performance.now();
    await saves.hold();
    if (state.build && !outputIntact(out, state.build)) state.build = null;
    const before = state.sources;
    const hadBuild = state.build !== null;
    // While the content has problems every open page shows their list, whatever its path.
    const showedProblems = state.problems.length > 0;
    state.sources = await readChanges(options.content, state.sources, paths);
    const images = imagesMayMove(paths);
    state.imagesChanged = images.length > 0;
    const way = choosePath(state, before);
    if (way === 'none') {
      saves.schedule();
      return null;
    }
    const wrote = (r: RebuildReport) => r.files.added.length + r.files.changed.length + r.files.removed.length;
    // An edited post's own responses, told to open pages before the rest is made.
    const early = { told: false, files: 0, targets: 0 };
    const served = async (r: RebuildReport) => {
      print.rebuilt(r, print.trigger(r));
      Object.assign(early, { told: true, files: wrote(r), targets: r.targets.length });
      server.tell(r.targets, false);
      return quiet();
    };
    const edit = way === 'post-edit' ? await postEdit(ctx, state, started, before, served) : null;
    const { report: r, deferred } =
      edit ??
      (hadBuild
        ? await incrementalRebuild(ctx, state, started, before)
        : { report: await fullBuild(ctx, state, started, before), deferred: null });
    if (r.ok && state.model) r.held = heldPosts(state.model.content, [...r.sources.added, ...r.sources.changed], options.now);
    r.images = images.map((path) => (relative(process.cwd(), join(options.content, path)) || path) + (path.endsWith('/') ? '/' : ''));
    if (!early.told) print.rebuilt(r, print.trigger(r));
    const first = early.told ? early.files : wrote(r);
    if (edit?.deferred === null) {
      // Another change came while the post's own responses were served: the rest is its rebuild's.
      state.artifactsBehind = true;
      print.rest(null, 0);
    } else {
      // A rebuild that only rewrote files under the same routes needs nothing of the server.
      if (wrote(r) > 0 || !hadBuild) await server.refresh();
      // Every page reloads after a failed build, and after the first good one since: pages that
      // showed the problem list must show the site again, even where no byte changed (a fix that
      // brings back the last good content changes none).
      server.tell(r.targets.slice(early.targets), !r.ok || !hadBuild || showedProblems);
    }
    if (deferred) {
      const done = await finish(deferred);
      state.artifactsBehind = !done;
      r.totalMs = done ? performance.now() - started : undefined;
      print.rest(done ? wrote(r) - first : null, done ? r.totalMs! - r.ms : 0);
    }
    // Ready for the next edit of a post (ownersOf walks every route), with
    // an empty young generation: at 10,000 posts each scavenge during an
    // edit took 15 to 40 ms of it.
    if (state.build && !state.owners) state.owners = ownersOf(state.build.routes);
    if (r.ok) collectGarbage('minor');
    saves.schedule();
    return r;
  };

  let running: Promise<unknown> = Promise.resolve();
  let rebuilding = false;
  const waiting: { resolve(r: RebuildReport): void; reject(error: unknown): void }[] = [];
  /**
   * The rebuild that waits for the running one: the batches that come
   * meanwhile join it. One rebuild each, an editor saving on every keystroke
   * queued one per save, and they ran one after the other long after the
   * last save, each finding nothing new but making the artifacts again.
   */
  let next: { paths: Set<string>; job: Promise<RebuildReport> } | null = null;
  const rebuild = (paths: string[]): Promise<RebuildReport> => {
    if (next) {
      for (const path of paths) next.paths.add(path);
      return next.job;
    }
    queued++;
    const batch = new Set(paths);
    const job = running.then(async () => {
      queued--;
      next = null;
      rebuilding = true;
      const r = await runRebuild([...batch]).finally(() => (rebuilding = false));
      if (!r) return report(state, performance.now(), state.sources);
      for (const w of waiting.splice(0)) w.resolve(r);
      return r;
    });
    next = { paths: batch, job };
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
  const warmUp = async () => {
    for (const source of state.sources.posts.slice(0, WARM_UP_POSTS)) {
      await new Promise((ok) => setImmediate(ok));
      if (changesWaiting() || closing) return;
      readDocument('post', source);
    }
  };

  const first = await fullBuild(ctx, state, performance.now(), emptySources(state.sources.dir));
  print.firstBuild(first, relative(process.cwd(), out) || out);
  if (state.build) state.owners = ownersOf(state.build.routes);
  saves.schedule();
  const server = await startDevServer({
    out,
    port: options.port,
    host: options.host,
    problems: () => state.problems,
    log: (message) => print.error(message),
  });
  await server.refresh();
  if (!server.serving() && first.ok) {
    await server.close();
    throw new Error(`folio dev: ${join(options.out, MANIFEST_PATH)} is missing after the build.`);
  }
  try {
    batcher = watchBatches(
      options.content,
      options.debounceMs ?? DEBOUNCE_MS,
      (paths) => void rebuild(paths).catch((error) => print.error(`the rebuild failed: ${(error as Error).message}`)),
      (error) => print.error(`watching ${options.content} failed: ${error.message}`),
    );
  } catch (error) {
    print.error(`cannot watch ${options.content} (${(error as Error).message}); changes will not rebuild.`);
  }
  void warmUp();
  print.serving(server.url, options.content);

  return {
    url: server.url,
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
      // Said, so that a second Ctrl-C is a choice: the output is whole only once the rebuild is written.
      if (rebuilding || queued) print.stopping();
      batcher?.close();
      await running;
      await saves.flush();
      await server.close();
      unlock();
    },
  };
}
