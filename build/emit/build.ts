// folio build: content → site model → every precomputable response → dist/.
// Each response comes from the same respond() the functions call (D38).
// Content files are rendered once each, across the cores, or taken from the
// cache; files stream into a staging directory that replaces dist/ whole
// (D40); with the state of the previous build, only the responses that may
// have changed are asked for again (incremental.ts).
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MANIFEST_PATH } from '../core/files.js';
import type { Site } from '../core/model.js';
import type { Source } from '../content/frontmatter.js';
import { contentFileStart, loadContent, type ContentSources } from '../content/load.js';
import type { ReadContent } from '../site.js';
import { SiteModel } from '../core/site-model.js';
import { checkOutput, openStaging, recoverOutput, type Staging } from './atomic.js';
import { lockOutput } from './output-lock.js';
import { checkPlaces } from './places.js';
import { loadHistory, loadState, saveHistory, saveState, serializeState } from './cache.js';
import { RecordCache } from './record-cache.js';
import { withWholeFile } from './whole-file.js';
import { recordChanges, sameHistory } from '../history.js';
import { readContentFast, type Remembered } from './documents.js';
import { digestSite, planBuild } from './incremental.js';
import type { BuildState } from './build-state.js';
import { type HostOptions } from './hosts/index.js';
import { assembleWithImages, type MediaFile } from './images.js';
import { emit, sha1, type Sink } from './emit.js';
import { collectGarbage, LARGE_SITE_POSTS } from './gc.js';
import { earlySearchThread } from './search-thread.js';
import type { Derived } from '../derived.js';
import { recordDigests } from './post-digest.js';
import { pruneSpare, spareDir, spareRecord, takeSpare } from './spare.js';

export interface BuildOptions {
  content: string;
  out: string;
  now: Date;
  siteUrl?: string;
  /** The hosts deployed to, whose limits fail the build; the others' only warn (hosts/index.ts). */
  hosts?: Omit<HostOptions, 'warn'>;
  /** Where the content's warnings and the other hosts' limit problems go; by default stderr (site.ts printWarning). */
  warn?: (message: string) => void;
  /**
   * The cache directory (cache.ts): rendered records, and the state of the
   * last build of `out` for incremental builds. Off unless given; the CLI
   * passes `.folio-cache/` beside the output.
   */
  cache?: string | false;
  /** Rendering worker threads besides the main thread (default: one fewer than the cores; 0: none). */
  workers?: number;
  /** Told how far each phase is, for a progress bar. */
  progress?: (phase: 'render' | 'write', done: number, total: number) => void;
  /** folio dev: its open cache (saved by dev, not here), the sources already loaded, records of sources read before, and what was derived from them. */
  records?: RecordCache;
  sources?: ContentSources;
  memo?: WeakMap<Source, Remembered>;
  derived?: Derived;
}

export interface BuildResult {
  site: Site;
  files: number;
  bytes: number;
  ms: number;
  stats: BuildStats;
  /** What the next incremental build compares against. */
  state: BuildState;
  /** The model with its indexes (folio dev's next edit derives its own from it). */
  model: SiteModel;
  /** The records the model was assembled from (folio dev's next edit starts from them). */
  content: ReadContent;
  /** The image files under /media/ (D44). */
  media: readonly MediaFile[];
}

export interface BuildStats {
  /** Content files read, and of them parsed and rendered (the rest came from the cache). */
  sources: number;
  rendered: number;
  workers: number;
  /** Distinct images, and of them those processed by sharp in this build (the rest came from the cache). */
  images: number;
  imagesProcessed: number;
  /** Targets respond() was asked for; the others kept the previous build's file. */
  asked: number;
  targets: number;
  /** Why every target was asked, when it was. */
  full: string | null;
  written: string[];
  removed: string[];
  spliced: string[];
  /** How the output was staged: in an empty directory, over links to the previous output's files, or in the spare output with only its changed files linked (spare.ts). */
  staged: 'empty' | 'links' | 'spare';
  /** Whether the host files were the previous build's (kept) or printed. */
  hostFiles?: 'kept' | 'printed';
  /** Milliseconds per phase: load, render, assemble, emit (respond: every target; artifacts), serialize (what the cache keeps), commit, and save (it) when there is a cache. */
  phases: Record<string, number>;
}

/** The bytes of content/static/ files: those loaded with the sources, else read again from disk. */
export function staticReader(content: string, sources?: ContentSources): (path: string) => Promise<Uint8Array> {
  const loaded = new Map((sources?.static ?? []).map((s) => [s.path, s.body]));
  return async (path) => loaded.get(path) ?? readFile(join(content, 'static', path));
}

/** Every file of the previous build's output, as its state knows them: a route's file, or one outside the route table. */
function outputFiles(previous: BuildState): Iterable<string> {
  return (function* () {
    yield* previous.extras.keys();
    for (const { file } of previous.routes.values()) yield file;
  })();
}

/** The previous build of `out` and its state, when both are there and agree. */
function previousBuild(cacheDir: string, out: string): BuildState | null {
  const state = loadState(cacheDir, out);
  if (!state) return null;
  let manifest: string;
  try {
    manifest = withWholeFile(join(out, MANIFEST_PATH), sha1);
  } catch {
    return null;
  }
  // The output must be the very build the state describes: it is reused file by file.
  return manifest === state.extras.get(MANIFEST_PATH)?.hash ? state : null;
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const out = resolve(options.out);
  const cacheDir = options.cache ? resolve(options.cache) : null;
  checkPlaces(options.content, out, cacheDir);
  // Before the cache beside it or anything else is written; openStaging checks again when the output is made.
  await checkOutput(out);
  const unlock = lockOutput(out, 'folio build');
  try {
    await recoverOutput(out);
    return await buildLocked(options, out, cacheDir, started);
  } finally {
    unlock();
  }
}

/** The build, once it alone writes the output (output-lock.ts). */
async function buildLocked(options: BuildOptions, out: string, cacheDir: string | null, started: number): Promise<BuildResult> {
  // Started now to read the previous search index while the site loads (search-thread.ts).
  const searchThread = cacheDir ? await earlySearchThread(out) : null;
  let mark = performance.now();
  const phases: Record<string, number> = {};
  const lap = (name: string) => {
    const now = performance.now();
    phases[name] = now - mark;
    mark = now;
  };
  const previous = cacheDir ? previousBuild(cacheDir, out) : null;
  let staging: Staging | null = null;
  let cache: RecordCache | null = null;
  let saved = false;
  let staged: BuildStats['staged'] = 'empty';
  try {
    const spare = cacheDir ? await takeSpare(cacheDir, out, previous) : null;
    if (previous) {
      // Its files are linked into the staging directory while the content loads (prelink.ts), or those of the spare that differ (spare.ts).
      staging = await openStaging(out);
      staged = staging.prelink(outputFiles(previous), spare) ? 'spare' : 'links';
    }
    const [records, sources] = await Promise.all([
      options.records ?? (cacheDir ? RecordCache.open(cacheDir) : null),
      options.sources ?? loadContent(options.content, { stamped: cacheDir !== null }),
    ]);
    cache = records;
    lap('load');
    const read = await readContentFast(sources, {
      cache,
      memo: options.memo,
      workers: options.workers,
      progress: (d, t) => options.progress?.('render', d, t),
    });
    lap('render');
    // The records are final: save them now, so their serialized copies are
    // garbage before the responses are made rather than on top of them.
    if (!options.records && cache) {
      await cache.save();
      saved = true;
    }
    if (read.stats.rendered >= LARGE_SITE_POSTS) collectGarbage();
    const history = cacheDir ? loadHistory(cacheDir, out) : null;
    const { model, images } = await assembleWithImages(read.content, {
      now: options.now,
      siteUrl: options.siteUrl,
      history,
      fileStart: contentFileStart(options.content),
      cache: cacheDir,
      derived: options.derived,
      warn: options.warn,
    });
    const { site } = model;
    const digest = digestSite(site, options.derived ?? recordDigests(read.content));
    const plan = planBuild(previous?.digest ?? null, digest);
    lap('assemble');
    const into = (staging ??= await openStaging(out));
    const sink: Sink = {
      write: (p, b) => into.write(p, b),
      reuse: (p) => into.reuse(p),
      splice: (p, size, edits) => into.splice(p, size, edits),
      read: (p) => readFile(join(out, p)).catch(() => null),
    };
    const emitted = await emit(model, sink, {
      previous,
      plan,
      digest: () => digest,
      progress: (d, t) => options.progress?.('write', d, t),
      hosts: { ...options.hosts, warn: options.warn },
      media: images.files,
      readStatic: staticReader(options.content, sources),
      searchThread,
    });
    lap('emit');
    Object.assign(phases, { respond: emitted.phases.respond, artifacts: emitted.phases.artifacts });
    // The output this build replaces is kept for the next one when the two share most files.
    // The ledger lists every file written or spliced, which with the removed ones are where the two differ.
    const kept = cacheDir ? spareRecord(previous, [...emitted.written, ...emitted.removed], emitted.files) : null;
    if (kept) emitted.state.spare = kept;
    const spareAt = kept ? spareDir(cacheDir!, out) : undefined;
    // What the cache keeps is made while the writing threads finish, and saved once the output is swapped in.
    const saving = cacheDir ? { dir: cacheDir, state: serializeState(emitted.state), record: recordChanges(site, history).history } : null;
    if (saving) lap('serialize');
    await into.commit(emitted.removed, spareAt);
    lap('commit');
    if (saving) {
      const { dir, state, record } = saving;
      // The kept spare's changed files are unlinked on the thread pool meanwhile.
      await Promise.all([
        saveState(dir, out, state),
        sameHistory(history, record) || saveHistory(dir, out, record),
        kept && pruneSpare(spareAt!, kept),
      ]);
      lap('save');
    }
    const stats: BuildStats = {
      sources: read.stats.files,
      rendered: read.stats.rendered,
      workers: read.stats.workers,
      images: images.images,
      imagesProcessed: images.processed,
      asked: emitted.asked,
      targets: emitted.state.routes.size,
      full: plan.all ? plan.reason : null,
      written: emitted.written,
      removed: emitted.removed,
      spliced: emitted.spliced,
      hostFiles: emitted.hostFiles,
      staged,
      phases,
    };
    return {
      site,
      model,
      files: emitted.files,
      bytes: emitted.bytes,
      ms: performance.now() - started,
      stats,
      state: emitted.state,
      content: read.content,
      media: images.files,
    };
  } catch (error) {
    await staging?.abort();
    throw error;
  } finally {
    searchThread?.stop();
    if (!options.records && !saved) await cache?.save();
  }
}
