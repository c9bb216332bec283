// emit(): every precomputable response of a site model, asked of the same
// respond() the functions call (D38), written through a sink with the
// manifest, the artifacts (search index, host files, edge files) and the
// state an incremental build compares against (D39, D40).
import { families, respond, targetsOf } from '../core/respond.js';
import { bodiesShown, documentFrame, documentsFamily, frameShowsBodies, keyedSection } from '../core/documents/index.js';
import { MANIFEST_PATH, SITE_PATH } from '../core/files.js';
import { request } from '../core/http.js';
import { staticHeaders } from '../core/media-types.js';
import { SiteModel } from '../core/site-model.js';
import { pageOfTwin, twinPath } from '../core/urls.js';
import { fileAnswer } from './answer.js';
import {
  digestSite,
  listedPlan,
  mustAsk,
  NO_PREVIOUS_BUILD,
  ownerOf,
  pendingDigest,
  showsAsBefore,
  showsMovedClock,
  type Plan,
} from './incremental.js';
import { recordHeaders, type OutputRecord } from './build-state.js';
import { watchClock, watchClockAsync } from '../core/clock.js';
import { indexSections, sectionEdits, splicedTag } from './splice.js';
import { prepareSearchIndex, readPreviousIndex, type PreparedSearch } from './search-index.js';
import { buildId } from './edge.js';
import { readEdgeBefore } from './edge-before.js';
import { artifacts, type EmitMade } from './artifacts.js';
import { collectGarbage, LARGE_SITE_POSTS } from './gc.js';
import { memoryRuntime } from './memory-runtime.js';
import { writeModelFile, type Splicer } from './model-file.js';
import type { EmitOptions, EmitResult, FirstAnswer, Made, Sink } from './emit-options.js';
import { Ledger } from './ledger.js';

export type { EmitOptions, EmitResult, FirstAnswer, FirstTargets, Sink } from './emit-options.js';
export { sha1 } from './ledger.js';

/**
 * Every precomputable response, streamed into `sink` as it is made: each GET
 * target of each family (D38), the not-found page, the runtime model, the
 * manifest, then the artifacts. With a previous build, targets the plan does
 * not ask for keep their file, and files whose bytes did not change are
 * reused rather than written. With `first`, those targets are asked for
 * before any other and the build may stop after them (FirstTargets).
 */
export async function emit(model: SiteModel, sink: Sink, options: EmitOptions = {}): Promise<EmitResult> {
  const { site } = model;
  const previous = options.previous ?? null;
  const plan: Plan = previous
    ? listedPlan(options.plan ?? { all: true, reason: 'no plan' }, model)
    : { all: true, reason: NO_PREVIOUS_BUILD };
  const rt = memoryRuntime(model);
  const ledger = new Ledger(site, sink, previous);
  const { manifest, state, written, kept } = ledger;
  /** The Splicer of this build (model-file.ts): null too when the sink cannot splice the file. */
  const splice: Splicer = async (file, index, tag, render, frame, also) => {
    if (plan.all || !index || !sink.splice) return null;
    const made = sectionEdits(index, also?.size ? new Set([...plan.changed, ...also]) : plan.changed, render, frame);
    if (!made || !(await sink.splice(file, index.size, made.edits))) return null;
    ledger.wrote(file);
    return { tag: splicedTag(tag, made.edits), index: made.index };
  };
  const spliced: string[] = [];
  const asked = new Set<string>();
  /** What the previous response of a target read of the build clock, as this build's record of the one it keeps. */
  const carryClock = (target: string) => {
    const read = previous?.clock?.get(target);
    if (read) state.clock!.set(target, read);
    return read;
  };
  /** A target the plan does not ask for: the previous build's file, reused; a promise only when the sink must be waited for. */
  const keep = (target: string, before: OutputRecord): Promise<void> | void => {
    // The previous record itself where this build numbers its header set the same (almost always):
    // a copy of each would be 31,000 more objects for the collector to move at 10,000 posts.
    const set = ledger.carrySet(before.set);
    ledger.route(target, set === before.set ? before : { ...before, set }, set === before.set);
    const sections = previous!.sections?.get(target);
    if (sections) state.sections.set(target, sections);
    kept.add(before.file);
    const read = carryClock(target);
    // A kept twin's size is all llms.txt needs of it (its token estimate), and shows what the twin read of the clock.
    const page = pageOfTwin(target);
    if (page !== null) model.twinSizes.set(page, before.size);
    if (page !== null && read) model.pageClock.set(page, read);
    return sink.reuse(before.file);
  };
  /**
   * A target asked for again: spliced from the previous file where it can
   * be, answered by respond() otherwise, and written. It is routed when
   * `record` is called: in the order targets are enumerated, so that the
   * manifest numbers header sets and lists routes as a clean build does.
   */
  const ask = async (target: string, before: OutputRecord | undefined): Promise<Made | null> => {
    asked.add(target);
    const from = written.length;
    const index = previous?.sections?.get(target);
    const spliceable = before !== undefined && index !== undefined && !plan.all;
    // One that showed the part of the clock that moved, or whose frame shows bodies (llms.txt), gets the text around
    // its sections made again, and the sections of the pages whose twins showed the clock (llms-full.txt, Sections);
    // without a frame it is made whole. After a listed field changed, every frame (a feed's newest date) and page
    // section (the home page's recent posts) may show it: all are made again.
    const listed = spliceable && plan.listed !== undefined;
    const framed =
      spliceable && (listed || showsMovedClock(plan, previous, target) || frameShowsBodies(target))
        ? watchClock(() => documentFrame(model, target))
        : null;
    const pages = framed
      ? new Set(index!.keys.filter((key) => key.startsWith('/') && (listed || showsMovedClock(plan, previous, twinPath(key)))))
      : undefined;
    const made =
      spliceable && (!framed || framed.value)
        ? await splice(before.file, index, before.etag, (key) => keyedSection(model, target, key)!, framed?.value ?? undefined, pages)
        : null;
    if (made) {
      // The headers of a document do not depend on its bytes.
      const { tag } = made;
      const size = made.index.size;
      return {
        file: before!.file,
        headers: recordHeaders(previous!, before!),
        written: written.length > from,
        record: () => {
          state.sections.set(target, made.index);
          if (carryClock(target) !== 'time' && framed?.read) state.clock!.set(target, framed.read);
          spliced.push(target);
          return ledger.route(target, { file: before!.file, etag: tag, set: ledger.carrySet(before!.set), own: before!.own, size });
        },
      };
    }
    const { value: answer, read } = await watchClockAsync(() => fileAnswer(target, rt));
    if (!answer) return null;
    const { file, headers, etag: tag, body } = answer;
    // Without a folder per address, a page and a document of the same name would share a file.
    if (kept.has(file))
      throw new Error(
        `folio: ${target} would be written to ${file}, which another address of this build already holds; report this as a bug (core/files.ts fileFor).`,
      );
    // Taken before the write: a large body moves to the writing thread, which leaves it empty here.
    const size = body.byteLength;
    const sections = answer.sections && indexSections(answer.sections, body);
    await ledger.put(file, body, tag, before?.file === file ? before.etag : undefined);
    return {
      file,
      headers,
      written: written.length > from,
      record: () => {
        if (sections) state.sections.set(target, sections);
        if (read) state.clock!.set(target, read);
        return ledger.route(target, { file, etag: tag, ...ledger.headers(headers), size });
      },
    };
  };
  let stopped = false;
  const mustKeep = (target: string, before: OutputRecord | undefined): before is OutputRecord => {
    const same = showsAsBefore(plan, previous, state, target, bodiesShown(model, target));
    return before !== undefined && (stopped || (!showsMovedClock(plan, previous, target) && (same || !mustAsk(plan, target))));
  };

  const phaseStart = performance.now();
  // The first targets are answered and written now, and routed in their turn below.
  const first = new Map<string, Made | null>();
  if (options.first) {
    const answers: FirstAnswer[] = [];
    for (const target of options.first.targets) {
      const before = previous?.routes.get(target);
      if (mustKeep(target, before)) {
        answers.push({ target, file: before.file, headers: recordHeaders(previous!, before), written: false });
        continue;
      }
      const made = await ask(target, before);
      first.set(target, made);
      if (made) answers.push({ target, file: made.file, headers: made.headers, written: made.written });
    }
    stopped = !(await options.first.then(answers));
  }
  // Stopped, the output is the previous build's but for the first targets,
  // whose posts' shared responses are not made yet.
  state.digest = stopped
    ? pendingDigest(
        previous!.digest,
        options.first!.targets.map(ownerOf).filter((slug) => slug !== null),
      )
    : (options.digest?.() ?? digestSite(site));
  // The build id; the search index, made on its own thread while the responses are; then the model
  // the functions could read, written now rather than held to the end (at 10,000 posts, 20 MB).
  let search: PreparedSearch | null = null;
  if (!stopped) {
    manifest.build = buildId(state.digest);
    search = prepareSearchIndex(site, await readPreviousIndex(previous, sink, options.searchThread ?? null), options.searchThread, plan);
    await writeModelFile(model, plan, previous, ledger, splice);
  }
  // The documents last: llms-full.txt and the feeds read every twin, which the pages family has made
  // by then. Enumerated first, they built every page at once while the search thread was at its largest.
  const beforeDocuments = families.filter((f) => f !== documentsFamily).flatMap((family) => targetsOf(model, family));
  const targets = [...beforeDocuments, ...targetsOf(model, documentsFamily)];
  let done = 0;
  for (const target of targets) {
    // On a large site, the documents and the files after them (site.json, the manifest) wait for the
    // search thread rather than add to its peak, the pages' garbage collected first (the peak was the
    // thread answering while this one held it): 800-811 MiB instead of 989-1,078 at 10,000 posts.
    // A body edit asks for a few documents, which need not wait.
    if (done === beforeDocuments.length && site.posts.length >= LARGE_SITE_POSTS && plan.all && search) {
      collectGarbage();
      await search.settled();
    }
    if (++done % 256 === 0) options.progress?.(done, targets.length);
    const before = previous?.routes.get(target);
    if (first.has(target)) first.get(target)?.record();
    else if (mustKeep(target, before)) {
      // Awaited only when it must be: an edit keeps 30,000 targets at 10,000 posts.
      const waiting = keep(target, before);
      if (waiting) await waiting;
    } else (await ask(target, before))?.record();
  }
  options.progress?.(targets.length, targets.length);
  const respondMs = performance.now() - phaseStart;
  if (stopped) {
    // The model, the manifest and the artifacts on disk are the previous build's.
    for (const [file, entry] of previous!.extras) state.extras.set(file, entry);
    const modelIndex = previous!.sections?.get(SITE_PATH);
    if (modelIndex) state.sections.set(SITE_PATH, modelIndex);
    state.search = previous!.search;
    state.shown = previous!.shown;
    state.hosts = previous!.hosts;
    const phases = { respond: respondMs, artifacts: 0 };
    return { manifest, state, files: kept.size, bytes: ledger.bytes, asked: asked.size, written, removed: [], spliced, phases, stopped };
  }
  // A large build collects in full between phases (gc.ts); one that asked for few responses (an
  // edit) has little garbage: at 10,000 posts the seven collections cost it 0.6 s for 100 MB.
  const heavy = site.posts.length >= LARGE_SITE_POSTS && asked.size >= LARGE_SITE_POSTS;
  if (heavy) collectGarbage();
  // content/static/, each file at its own path with its type (D43); assembleSite made sure no address above has it.
  for (const f of site.static) {
    if (!options.readStatic) throw new Error(`folio: ${f.path} is a static file, but emit() was given no readStatic to read it with.`);
    const file = f.path.slice(1);
    await ledger.extra(file, await options.readStatic(f.path));
    manifest.routes.set(f.path, [file, ledger.wholeSet(staticHeaders(f.content_type))]);
  }
  // The not-found page, so static hosts answer unknown paths with it (D23).
  const missing = await respond(request('GET', '/404', { accept: 'text/html' }), rt);
  if (missing.body) {
    await ledger.extra('404.html', missing.body);
    manifest.fallbacks['/*'] = { file: '404.html', status: 404, header_set: ledger.wholeSet(missing.headers) };
  }
  // Fingerprinted: a name the previous build had holds the same bytes, so it is reused unread.
  for (const m of options.media ?? []) {
    manifest.routes.set(`/${m.path}`, [m.path, ledger.wholeSet(m.headers)]);
    ledger.bytes += m.size;
    state.extras.set(m.path, { hash: m.path, size: m.size });
    kept.add(m.path);
    if (previous?.extras.get(m.path)?.hash === m.path) await sink.reuse(m.path);
    else {
      written.push(m.path);
      await sink.write(m.path, await m.read());
    }
  }
  // Final here: the artifacts below read it and never change it.
  await ledger.extra(MANIFEST_PATH, ledger.manifestBytes(previous && (await sink.read?.(MANIFEST_PATH))));
  const result: EmitResult = {
    manifest,
    state,
    files: 0,
    bytes: 0,
    asked: asked.size,
    written,
    removed: [],
    spliced,
    phases: { respond: respondMs, artifacts: 0 },
    stopped,
  };
  // The previous build's responses that are gone are known now; its artifacts only after they ran.
  if (previous) for (const { file } of previous.routes.values()) if (!kept.has(file)) result.removed.push(file);

  const finish = async () => {
    const started = performance.now();
    const from = written.length;
    const bodiesOnly = !plan.all && !plan.listed;
    const before = await readEdgeBefore(bodiesOnly, previous, state.targets!, sink.read?.bind(sink), asked);
    const build = { previous, state, read: sink.read?.bind(sink) };
    const made: EmitMade = { model, search: search!, edge: { routes: '', posts: '', not_found: '' }, before, build };
    for (const artifact of artifacts) {
      for (const file of await artifact(site, manifest, options, made))
        await ('kept' in file ? ledger.keptByHash(file.path, file.kept) : ledger.extra(file.path, file.body, file.hash, file.rewrite));
      // Each artifact's garbage (the host plan's questions, the search files) goes before the next one's.
      if (heavy) collectGarbage();
    }
    if (previous) for (const file of previous.extras.keys()) if (!kept.has(file)) result.removed.push(file);
    state.search = search!.memo ?? undefined;
    result.hostFiles = made.hosts;
    result.files = kept.size;
    result.bytes = ledger.bytes;
    result.phases.artifacts = performance.now() - started;
    return written.slice(from);
  };
  if (options.deferArtifacts) result.artifacts = finish;
  else await finish();
  return result;
}
