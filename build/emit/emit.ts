// emit(): every precomputable response of a site model, asked of the same
// respond() the functions call (D38), written through a sink with the
// manifest, the artifacts (search index, host files, edge files) and the
// state an incremental build compares against (D39, D40).
import { createHash } from 'node:crypto';
import { families, respond } from '../core/respond.js';
import { documentsFamily, postSection } from '../core/documents/index.js';
import { MANIFEST_PATH, SITE_PATH, type Manifest } from '../core/files.js';
import { etag, jsonText, request, utf8, type Headers } from '../core/http.js';
import { staticHeaders } from '../core/media-types.js';
import { SiteModel } from '../core/site-model.js';
import { pageOfTwin } from '../core/urls.js';
import { fileAnswer } from './answer.js';
import { codeFingerprint } from './cache.js';
import { digestSite, mustAsk, type BuildState, type OutputRecord, type Plan, type SiteDigest } from './incremental.js';
import { indexSections, spliceSections, type SectionIndex } from './splice.js';
import { type HostOptions } from './hosts/index.js';
import { type MediaFile } from './images.js';
import { prepareSearchIndex } from './search-index.js';
import { buildId } from './edge.js';
import { artifacts } from './artifacts.js';
import { collectGarbage, LARGE_SITE_POSTS } from './gc.js';
import { memoryRuntime, runtimeModel } from './memory-runtime.js';

/** Where emit() puts files: a staging directory, the dev server's directory, or memory. */
export interface Sink {
  write(path: string, body: Uint8Array | string): Promise<void>;
  /** The file at `path` is byte-identical to the previous build's. */
  reuse(path: string): Promise<void>;
  /** The previous build's file at `path`, when the sink can read it (documents of post sections are spliced from it). */
  read?(path: string): Promise<Uint8Array | null>;
}

export interface EmitOptions {
  /** The previous build of the same output and the plan against it (incremental.ts); without them every target is asked. */
  previous?: BuildState | null;
  plan?: Plan;
  progress?: (done: number, total: number) => void;
  hosts?: HostOptions;
  /**
   * Return once the responses, the model and the manifest are written, and
   * leave the artifacts (search index, host files) to `result.artifacts()`:
   * folio dev serves the change first and finishes the slow part after.
   */
  deferArtifacts?: boolean;
  /** The digest of `site`, when the caller has it (folio dev updates it per edit). */
  digest?: SiteDigest;
  /** The bytes of a file of content/static/ by its site path (D43); needed when the site has any. */
  readStatic?: (path: string) => Promise<Uint8Array>;
  /** The image files under /media/ (D44), routed through the manifest with their headers. */
  media?: readonly MediaFile[];
}

export interface EmitResult {
  manifest: Manifest;
  state: BuildState;
  /** Every file of the output, and their bytes. */
  files: number;
  bytes: number;
  /** Targets respond() was asked for in this build. */
  asked: number;
  /** Files written because they are new or their bytes changed. */
  written: string[];
  /** Files of the previous build that this one no longer has. */
  removed: string[];
  /** Targets made by splicing the previous file's sections (splice.ts) rather than by respond(). */
  spliced: string[];
  /** Milliseconds: asking for every target, then the artifacts. */
  phases: { respond: number; artifacts: number };
  /**
   * With deferArtifacts: writes the artifacts and completes this result
   * (files, bytes, and the removed files of the previous build's artifacts;
   * its removed responses are in `removed` already); resolves with the files
   * it wrote. A caller that never calls it must keep the previous build's
   * artifact entries in `state.extras`, as folio dev does.
   */
  artifacts?: () => Promise<string[]>;
}

export const sha1 = (body: Uint8Array) => createHash('sha1').update(body).digest('base64');

/**
 * Every precomputable response, streamed into `sink` as it is made: each GET
 * target of each family (D38), the not-found page, the runtime model, the
 * manifest, then the artifacts. With a previous build, targets the plan does
 * not ask for keep their file, and files whose bytes did not change are
 * reused rather than written.
 */
export async function emit(model: SiteModel, sink: Sink, options: EmitOptions = {}): Promise<EmitResult> {
  const { site } = model;
  const previous = options.previous ?? null;
  const plan: Plan = previous ? (options.plan ?? { all: true, reason: 'no plan' }) : { all: true, reason: 'no previous build' };
  const rt = memoryRuntime(model);
  // The model the functions could read, and the build id named after it: the
  // search shards carry it, and they are made from the start (below).
  const siteBytes = utf8(JSON.stringify(runtimeModel(site)));
  const build = buildId(siteBytes);
  // The search index needs only the model: it is made on its own thread while the responses are.
  const search = prepareSearchIndex(site, build);
  const manifest: Manifest = {
    version: 1,
    site_url: site.config.site_url,
    build,
    header_sets: [],
    routes: {},
    fallbacks: {},
    redirects: site.redirects,
  };
  const setIndex = new Map<string, number>();
  const headerSet = (headers: Headers) => {
    const { etag: _etag, ...rest } = headers;
    const key = JSON.stringify(rest);
    let i = setIndex.get(key);
    if (i === undefined) {
      i = manifest.header_sets.push(rest) - 1;
      setIndex.set(key, i);
    }
    return i;
  };
  // The previous build's header sets, by index, as this build numbers them.
  const carried = new Map<number, number>();
  const state: BuildState = {
    fingerprint: codeFingerprint(),
    digest: options.digest ?? digestSite(site),
    routes: new Map(),
    headerSets: manifest.header_sets,
    extras: new Map(),
    sections: new Map(),
  };
  /** A document of post sections after a body edit: the previous file with the edited posts' sections made again (splice.ts), or null. */
  const splice = async (target: string, before: OutputRecord): Promise<{ body: Uint8Array; index: SectionIndex } | null> => {
    const index = previous?.sections?.get(target);
    if (plan.all || !index || !sink.read) return null;
    const old = await sink.read(before.file);
    if (!old) return null;
    return spliceSections(old, index, plan.changed, (slug) => postSection(model, target, model.posts.bySlug.get(slug)!)!);
  };
  const written: string[] = [];
  const spliced: string[] = [];
  const kept = new Set<string>();
  let asked = 0;
  let bytes = 0;
  const put = async (file: string, body: Uint8Array, tag: string, before: string | undefined) => {
    kept.add(file);
    if (before === tag) return sink.reuse(file);
    written.push(file);
    return sink.write(file, body);
  };
  const extra = (file: string, content: Uint8Array | string) => {
    // Encoded once, and so hashed, counted and written as the same bytes; the
    // large ones (site.json, the manifest, the search index) then move to the
    // writing thread instead of being copied there as text.
    const body = typeof content === 'string' ? utf8(content) : content;
    const hash = sha1(body);
    const size = body.byteLength;
    bytes += size;
    state.extras.set(file, { hash, size });
    return put(file, body, hash, previous?.extras.get(file)?.hash);
  };

  // Written now rather than held to the end: at 10,000 posts it is some 20 MB.
  await extra(SITE_PATH, siteBytes);
  const phaseStart = performance.now();
  // The documents last: llms-full.txt and the feeds read every twin, which
  // the pages family has made by then. Enumerated first, they built every
  // page at once while the search thread was at its largest: the peak of
  // memory.
  const beforeDocuments = families.filter((f) => f !== documentsFamily).flatMap((family) => family.enumerate(model));
  const targets = [...beforeDocuments, ...documentsFamily.enumerate(model)];
  let done = 0;
  for (const target of targets) {
    // On a large site, the documents and the files after them (site.json,
    // the manifest) wait for the search thread rather than add to its peak.
    // A full build is past it by then; a one-post rebuild at 10,000 posts
    // waits about 1 s and peaks at 800-811 MiB instead of 989-1,078 MiB.
    // The pages' garbage goes first: the build's peak was the search thread
    // answering while this thread still held it. A body edit asks for a few
    // documents, which need not wait.
    if (done === beforeDocuments.length && site.posts.length >= LARGE_SITE_POSTS && plan.all) {
      collectGarbage();
      await search.settled();
    }
    if (++done % 256 === 0) options.progress?.(done, targets.length);
    const before = previous?.routes.get(target);
    if (before && !mustAsk(plan, target)) {
      let set = carried.get(before.set);
      if (set === undefined) carried.set(before.set, (set = headerSet(previous!.headerSets[before.set]!)));
      state.routes.set(target, { ...before, set });
      manifest.routes[target] = [before.file, set];
      const sections = previous!.sections?.get(target);
      if (sections) state.sections.set(target, sections);
      kept.add(before.file);
      bytes += before.size;
      // A kept twin's size is all llms.txt needs of it (its token estimate).
      const page = pageOfTwin(target);
      if (page !== null) model.twinSizes.set(page, before.size);
      await sink.reuse(before.file);
      continue;
    }
    asked++;
    const made = before ? await splice(target, before) : null;
    if (made) {
      // The headers of a document do not depend on its bytes, but for the ETag.
      let set = carried.get(before!.set);
      if (set === undefined) carried.set(before!.set, (set = headerSet(previous!.headerSets[before!.set]!)));
      const tag = etag(made.body);
      bytes += made.body.byteLength;
      state.routes.set(target, { file: before!.file, etag: tag, set, size: made.body.byteLength });
      state.sections.set(target, made.index);
      manifest.routes[target] = [before!.file, set];
      spliced.push(target);
      await put(before!.file, made.body, tag, before!.etag);
      continue;
    }
    const answer = await fileAnswer(target, rt);
    if (!answer) continue;
    const { file, headers, etag: tag, body } = answer;
    // Without a folder per address, a page and a document of the same name would share a file.
    if (kept.has(file))
      throw new Error(
        `folio: ${target} would be written to ${file}, which another address of this build already holds; report this as a bug (core/files.ts fileFor).`,
      );
    const set = headerSet(headers);
    if (answer.sections) state.sections.set(target, indexSections(answer.sections));
    bytes += body.byteLength;
    state.routes.set(target, { file, etag: tag, set, size: body.byteLength });
    manifest.routes[target] = [file, set];
    await put(file, body, tag, before?.file === file ? before.etag : undefined);
  }
  options.progress?.(targets.length, targets.length);
  const respondMs = performance.now() - phaseStart;
  if (site.posts.length >= LARGE_SITE_POSTS) collectGarbage();
  // content/static/, each file at its own path with its type (D43); assembleSite made sure no address above has it.
  for (const f of site.static) {
    if (!options.readStatic) throw new Error(`folio: ${f.path} is a static file, but emit() was given no readStatic to read it with.`);
    const file = f.path.slice(1);
    await extra(file, await options.readStatic(f.path));
    manifest.routes[f.path] = [file, headerSet(staticHeaders(f.content_type))];
  }
  // The not-found page, so static hosts answer unknown paths with it (D23).
  const missing = await respond(request('GET', '/404', { accept: 'text/html' }), rt);
  if (missing.body) {
    await extra('404.html', missing.body);
    manifest.fallbacks['/*'] = { file: '404.html', status: 404, header_set: headerSet(missing.headers) };
  }
  // Fingerprinted: a name the previous build had holds the same bytes, so it is reused unread.
  for (const m of options.media ?? []) {
    manifest.routes[`/${m.path}`] = [m.path, headerSet(m.headers)];
    bytes += m.size;
    state.extras.set(m.path, { hash: m.path, size: m.size });
    kept.add(m.path);
    if (previous?.extras.get(m.path)?.hash === m.path) await sink.reuse(m.path);
    else {
      written.push(m.path);
      await sink.write(m.path, await m.read());
    }
  }
  // Final here: the artifacts below read it and never change it.
  await extra(MANIFEST_PATH, jsonText(manifest));
  const result: EmitResult = {
    manifest,
    state,
    files: 0,
    bytes: 0,
    asked,
    written,
    removed: [],
    spliced,
    phases: { respond: respondMs, artifacts: 0 },
  };
  // The previous build's responses that are gone are known now; its artifacts only after they ran.
  if (previous) for (const { file } of previous.routes.values()) if (!kept.has(file)) result.removed.push(file);

  const finish = async () => {
    const started = performance.now();
    const from = written.length;
    for (const artifact of artifacts) {
      for (const file of await artifact(site, manifest, options, { model, search })) await extra(file.path, file.body);
      // Each artifact's garbage (the host plan's questions, the search files) goes before the next one's.
      if (site.posts.length >= LARGE_SITE_POSTS) collectGarbage();
    }
    if (previous) for (const file of previous.extras.keys()) if (!kept.has(file)) result.removed.push(file);
    result.files = kept.size;
    result.bytes = bytes;
    result.phases.artifacts = performance.now() - started;
    return written.slice(from);
  };
  if (options.deferArtifacts) result.artifacts = finish;
  else await finish();
  return result;
}
