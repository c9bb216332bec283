// The three ways a rebuild of folio dev goes (the planner picks one): the
// whole build, the incremental rebuild of everything the change may touch,
// and a post's own responses first for an edit that keeps every address.
import { ContentError } from '../content/problems.js';
import { contentFileExists, type ContentSources } from '../content/load.js';
import type { Headers } from '../core/http.js';
import { fileAnswer } from '../emit/answer.js';
import { build } from '../emit/build.js';
import { memoryRuntime } from '../emit/memory-runtime.js';
import { readContentFast } from '../emit/documents.js';
import { digestSite, pendingDigest, planBuild, planEdit, updateDigest, type BuildState, type OutputRecord } from '../emit/incremental.js';
import { assembleWithImages, resolveImages } from '../emit/images.js';
import type { ReadContent } from '../site.js';
import { updateSite } from '../site-update.js';
import { changedPosts, diffSources, ownersOf } from './planner.js';
import type { DevContext, DevState, RebuildReport } from './state.js';
import { emitInPlace, forgetSavedState, inPlaceSink, type Deferred } from './writer.js';

export function report(state: DevState, started: number, before: ContentSources, partial: Partial<RebuildReport> = {}): RebuildReport {
  return {
    ok: state.problems.length === 0,
    ms: performance.now() - started,
    sources: diffSources(before, state.sources),
    files: { added: [], changed: [], removed: [] },
    targets: [],
    full: null,
    problems: state.problems,
    ...partial,
  };
}

/** The whole build, as `folio build` makes it (with the cache and the state of the previous one). */
export async function fullBuild(ctx: DevContext, state: DevState, started: number, before: ContentSources): Promise<RebuildReport> {
  state.model = null;
  state.owners = null;
  const { options } = ctx;
  try {
    const result = await build({
      content: options.content,
      out: ctx.out,
      now: options.now,
      siteUrl: options.siteUrl,
      cache: options.cache,
      workers: options.workers,
      records: ctx.records ?? undefined,
      sources: state.sources,
      memo: ctx.memo,
      derived: ctx.derived,
    });
    state.build = result.state;
    state.stateSaved = ctx.cacheDir !== null;
    state.problems = [];
    state.model = { content: result.content, model: result.model };
    state.media = result.media;
    return report(state, started, before, {
      full: result.stats.full,
      files: { added: result.stats.written, changed: [], removed: [] },
      targets: [...result.state.routes.keys()],
    });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    state.problems = error.problems;
    return report(state, started, before);
  }
}

/** Any change: read what changed, assemble the whole model, and ask for every response the plan names. */
export async function incrementalRebuild(
  ctx: DevContext,
  state: DevState,
  started: number,
  before: ContentSources,
): Promise<{ report: RebuildReport; deferred?: Deferred }> {
  const previous = state.build!;
  state.model = null;
  state.owners = null;
  const read = await readContentFast(state.sources, { cache: ctx.records, memo: ctx.memo, workers: ctx.options.workers });
  let model;
  try {
    let images;
    ({ model, images } = await assembleWithImages(read.content, {
      now: ctx.options.now,
      siteUrl: ctx.options.siteUrl,
      exists: contentFileExists(ctx.options.content),
      cache: ctx.cacheDir,
      derived: ctx.derived,
    }));
    state.media = images.files;
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    state.problems = error.problems;
    return { report: report(state, started, before) };
  }
  state.problems = [];
  const digest = digestSite(model.site, ctx.derived);
  const plan = planBuild(previous.digest, digest);
  await forgetSavedState(ctx, state);
  const r = report(state, started, before, { full: plan.all ? plan.reason : null });
  const deferred = await emitInPlace(ctx, state, model, previous, plan, r, digest);
  state.model = { content: read.content, model };
  r.ms = performance.now() - started;
  return { report: r, deferred };
}

export interface PostEdit {
  report: RebuildReport;
  /** Asks for the shared responses (lists, tag pages, feeds, llms files, sitemap), the model and the manifest. */
  rest(): Promise<Deferred>;
  /** Leaves the rest to the next rebuild: the state then says those posts are pending. */
  skip(): void;
}

/**
 * An edit of posts that keeps every address and the order (a body, a
 * title): render those files, take the rest of the model as it was
 * (updateSite), and answer and write those posts' own targets (page, twin,
 * API record) before anything else. They are served as soon as they are on
 * disk: their routes and headers are the ones the server has. Null when the
 * change is not such an edit (nothing is written then).
 */
export async function postEdit(ctx: DevContext, state: DevState, started: number, before: ContentSources): Promise<PostEdit | null> {
  const previous = state.build;
  const known = state.model;
  const changed = previous && known && state.problems.length === 0 ? changedPosts(before, state.sources) : null;
  if (!previous || !known || !changed?.length) return null;
  const read = await readContentFast(
    { dir: state.sources.dir, site: null, profile: null, services: [], posts: changed.map((c) => c.source), projects: [] },
    { cache: ctx.records, memo: ctx.memo, workers: 0 },
  );
  const posts = known.content.posts.slice();
  changed.forEach((c, n) => (posts[c.index] = read.content.posts[n]!));
  const content: ReadContent = { ...known.content, posts };
  let update;
  try {
    // The edited posts' images (D44), from the cache when unchanged; a problem with one takes the whole way, which reports it.
    const images = read.content.posts.some((r) => r.read?.images.length)
      ? await resolveImages(read.content, { now: ctx.options.now, cache: ctx.cacheDir })
      : null;
    if (images) state.media = [...new Map([...state.media, ...images.files].map((m) => [m.path, m])).values()];
    update = updateSite(known.model, known.content, content, images?.table, ctx.derived);
  } catch (error) {
    // A broken link: the whole check reports it, with every other problem.
    if (error instanceof ContentError) return null;
    throw error;
  }
  if (!update) return null;
  // A listed field (a title, a reading time) shows on other pages too: every
  // response is asked for after this post's own, but they still come first.
  const plan = planEdit(previous.digest, update.posts, ctx.derived);
  state.owners ??= ownersOf(previous.routes);
  const rt = memoryRuntime(update.model);
  const sink = inPlaceSink(ctx.out);
  const answers: { target: string; record: OutputRecord }[] = [];
  const fresh: { target: string; record: OutputRecord }[] = [];
  // A twin's token estimate follows its body: its header set may be new.
  const headerSets = previous.headerSets.slice();
  const sameBesidesTokens = (a: Headers, b: Headers) =>
    JSON.stringify({ ...a, 'x-markdown-tokens': '' }) === JSON.stringify({ ...b, 'x-markdown-tokens': '' });
  for (const post of update.posts) {
    for (const target of state.owners.get(post.slug) ?? []) {
      const was = previous.routes.get(target);
      if (!was) continue;
      const made = await fileAnswer(target, rt);
      // Another file or other headers need the new manifest first: the whole
      // way, then (it asks again for what was written here, and gets the same).
      const before = previous.headerSets[was.set]!;
      if (!made || made.file !== was.file || !sameBesidesTokens(made.headers, before)) return null;
      const set = JSON.stringify(made.headers) === JSON.stringify(before) ? was.set : headerSets.push(made.headers) - 1;
      const answer = { target, record: { file: was.file, etag: made.etag, set, size: made.body.byteLength } };
      answers.push(answer);
      if (made.etag === was.etag) continue;
      // Each is served as soon as it is written.
      await forgetSavedState(ctx, state);
      await sink.write(was.file, made.body);
      fresh.push(answer);
    }
  }
  state.problems = [];
  state.model = { content, model: update.model };
  const r = report(state, started, before, {
    full: plan.all ? plan.reason : null,
    files: { added: [], changed: fresh.map((a) => a.record.file), removed: [] },
    targets: fresh.map((a) => a.target),
  });
  // What is on disk now: those posts' own responses are new, the shared ones
  // not yet. Made once the edit is served, as the other whole-site work.
  const pending = (): BuildState => {
    const routes = new Map(previous.routes);
    for (const a of answers) routes.set(a.target, a.record);
    return {
      ...previous,
      routes,
      headerSets,
      digest: pendingDigest(
        previous.digest,
        update.posts.map((post) => post.slug),
      ),
    };
  };
  return {
    report: r,
    rest: () =>
      emitInPlace(
        ctx,
        state,
        update.model,
        pending(),
        plan,
        r,
        updateDigest(previous.digest, update.model.site, update.posts, ctx.derived),
      ),
    skip: () => void (state.build = pending()),
  };
}
