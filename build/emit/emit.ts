// emit(): every precomputable response of a site model, asked of the same
// respond() the functions call (D38), written through a sink with the
// manifest, the artifacts (search index, host files, edge files) and the
// state an incremental build compares against (D39, D40).
import { families, targetsOf } from '../core/families.js';
import { documentsFamily } from '../core/documents/index.js';
import { MANIFEST_PATH, SITE_PATH } from '../core/files.js';
import type { SiteModel } from '../core/site-model.js';
import { digestSite, listedPlan, NO_PREVIOUS_BUILD, ownerOf, pendingDigest, type Plan } from './incremental.js';
import { prepareSearchIndex, readPreviousIndex, type PreparedSearch } from './search-index.js';
import { buildId } from './edge.js';
import { readEdgeBefore } from './edge-before.js';
import { artifacts, type EmitMade } from './artifacts.js';
import { collectGarbage, LARGE_SITE_POSTS } from './gc.js';
import { memoryRuntime } from './memory-runtime.js';
import { writeModelFile } from './model-file.js';
import type { EmitOptions, EmitResult, Made, Sink } from './emit-options.js';
import { Ledger } from './ledger.js';
import { writeSiteFiles } from './site-files.js';
import { Targets } from './targets.js';

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
  const given: Plan = options.plan ?? { all: true, reason: 'no plan' };
  // A plan that does not ask for everything keeps the posts' order and tags, and so their related posts.
  if (previous?.related && !given.all) model.adoptRelated(previous.related);
  const plan: Plan = previous ? listedPlan(given, model) : { all: true, reason: NO_PREVIOUS_BUILD };
  const rt = memoryRuntime(model);
  const ledger = new Ledger(site, sink, previous);
  const { manifest, state, written, kept } = ledger;
  const targets = new Targets(model, rt, plan, previous, ledger, sink);
  const { asked, spliced } = targets;

  const phaseStart = performance.now();
  // The first targets are answered and written now, and routed in their turn below.
  const first = options.first ? await targets.first(options.first) : new Map<string, Made | null>();
  // Stopped, the output is the previous build's but for the first targets,
  // whose posts' shared responses are not made yet.
  const { stopped } = targets;
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
    await writeModelFile(model, plan, previous, ledger, targets.splice);
  }
  // The documents last: llms-full.txt and the feeds read every twin, which the pages family has made
  // by then. Enumerated first, they built every page at once while the search thread was at its largest.
  const beforeDocuments = families.filter((f) => f !== documentsFamily).flatMap((family) => targetsOf(model, family));
  const all = [...beforeDocuments, ...targetsOf(model, documentsFamily)];
  let done = 0;
  for (const target of all) {
    // On a large site, the documents and the files after them (site.json, the manifest) wait for the
    // search thread rather than add to its peak, the pages' garbage collected first (the peak was the
    // thread answering while this one held it): 800-811 MiB instead of 989-1,078 at 10,000 posts.
    // A body edit asks for a few documents, which need not wait.
    if (done === beforeDocuments.length && site.posts.length >= LARGE_SITE_POSTS && plan.all && search) {
      collectGarbage();
      await search.settled();
    }
    if (++done % 256 === 0) options.progress?.(done, all.length);
    const before = targets.recordOf(target);
    if (first.has(target)) first.get(target)?.record();
    else if (targets.mustKeep(target, before)) {
      // Awaited only when it must be: an edit keeps 30,000 targets at 10,000 posts.
      const waiting = targets.keep(target, before);
      if (waiting) await waiting;
    } else (await targets.ask(target, before))?.record();
  }
  options.progress?.(all.length, all.length);
  const respondMs = performance.now() - phaseStart;
  if (stopped) {
    // The model, the manifest and the artifacts on disk are the previous build's.
    state.related = previous!.related;
    for (const [file, entry] of previous!.extras) state.extras.set(file, entry);
    const modelIndex = previous!.sections?.get(SITE_PATH);
    if (modelIndex) state.sections.set(SITE_PATH, modelIndex);
    state.search = previous!.search;
    state.shown = previous!.shown;
    state.hosts = previous!.hosts;
    const phases = { respond: respondMs, artifacts: 0 };
    return { manifest, state, files: kept.size, bytes: ledger.bytes, asked: asked.size, written, removed: [], spliced, phases, stopped };
  }
  // Every post's page was asked or its list adopted, so none is found here (but once, after a state without them).
  state.related = model.relatedTable();
  // A large build collects in full between phases (gc.ts); one that asked for few responses (an
  // edit) has little garbage: at 10,000 posts the seven collections cost it 0.6 s for 100 MB.
  const heavy = site.posts.length >= LARGE_SITE_POSTS && asked.size >= LARGE_SITE_POSTS;
  if (heavy) collectGarbage();
  await writeSiteFiles(site, rt, ledger, sink, options, previous);
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
    const before = await readEdgeBefore(plan, previous, state.targets!, sink.read?.bind(sink), asked);
    const build = { previous, state, read: sink.read?.bind(sink) };
    const made: EmitMade = { model, search: search!, edge: { routes: '', posts: '', not_found: '', changes: '' }, before, build };
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
