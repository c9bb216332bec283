// The three ways a rebuild of folio dev goes (the planner picks one): the
// whole build, the incremental rebuild of everything the change may touch,
// and, for an edit that keeps every address, the same rebuild from a model
// updated in place, with the edited posts' own responses first.
import { existsSync } from 'node:fs';
import { ContentError, type Problem } from '../content/problems.js';
import { contentFileStart, type ContentSources } from '../content/load.js';
import { build } from '../emit/build.js';
import { loadHistory } from '../emit/cache.js';
import { readContentFast } from '../emit/documents.js';
import { digestSite, planBuild, planEdit, updateDigest } from '../emit/incremental.js';
import { assembleWithImages, resolveImages } from '../emit/images.js';
import { missingAltText } from '../content/published-checks.js';
import type { ReadContent } from '../site.js';
import { updateSite } from '../site-update.js';
import { changedPosts, diffSources, ownersOf } from './planner.js';
import type { DevContext, DevState, RebuildReport } from './state.js';
import { emitInPlace, type Deferred } from './writer.js';

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

/**
 * The content's problems. A content folder that is gone (moved, or a branch
 * without it checked out) is one problem, not every file it held missing.
 */
function contentProblems(error: ContentError, ctx: DevContext, state: DevState): Problem[] {
  if (existsSync(ctx.options.content)) return error.problems;
  const shown = `${state.sources.dir}/`;
  return [
    {
      file: shown,
      line: 0,
      column: 0,
      message: `The content folder ${shown} is gone: moved, renamed or deleted.`,
      hint: `Put it back, and folio dev rebuilds. If it has moved for good, stop folio dev and start it again with --content naming its new place. Until then the last good build is served.`,
    },
  ];
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
    state.problems = contentProblems(error, ctx, state);
    return report(state, started, before);
  }
}

/** Any change: read what changed, assemble the whole model, and ask for every response the plan names. */
export async function incrementalRebuild(
  ctx: DevContext,
  state: DevState,
  started: number,
  before: ContentSources,
): Promise<{ report: RebuildReport; deferred: Deferred | null }> {
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
      // The record of published items the session's first build read and saved (D61), as folio build reads it.
      history: ctx.cacheDir ? loadHistory(ctx.cacheDir, ctx.out) : null,
      fileStart: contentFileStart(ctx.options.content),
      cache: ctx.cacheDir,
      derived: ctx.derived,
    }));
    state.media = images.files;
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    state.problems = contentProblems(error, ctx, state);
    return { report: report(state, started, before), deferred: null };
  }
  state.problems = [];
  const digest = digestSite(model.site, ctx.derived);
  const plan = planBuild(previous.digest, digest);
  const r = report(state, started, before, { full: plan.all ? plan.reason : null });
  const deferred = await emitInPlace(ctx, state, model, previous, plan, r, () => digest);
  state.model = { content: read.content, model };
  r.ms = performance.now() - started;
  return { report: r, deferred };
}

/**
 * An edit of posts that keeps every address and the order (a body, a
 * title): render those files, take the rest of the model as it was
 * (updateSite), and rebuild as any other change, but with those posts' own
 * targets (page, twin, API record) first: once they are written, `served`
 * is told, and they are served while the rest waits; it may leave the rest
 * to the next rebuild (then `deferred` is null). Null when the change is not
 * such an edit (nothing is written then).
 */
export async function postEdit(
  ctx: DevContext,
  state: DevState,
  started: number,
  before: ContentSources,
  served: (r: RebuildReport) => Promise<boolean>,
): Promise<{ report: RebuildReport; deferred: Deferred | null } | null> {
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
  // An image without alt text is the whole way's to report, with the rest it checks on what is published.
  if (read.content.posts.some((r) => r.read && missingAltText(r.read.images).length)) return null;
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
  // A listed field (a title, a reading time) shows on other pages too: the
  // plan then asks for every shared response and the posts whose related
  // posts show it (incremental.ts listedPlan), but this post's own come first.
  const plan = planEdit(previous.digest, update.posts, ctx.derived);
  state.owners ??= ownersOf(previous.routes);
  const owned = update.posts.flatMap((post) => state.owners!.get(post.slug) ?? []);
  state.problems = [];
  state.model = { content, model: update.model };
  const r = report(state, started, before, { full: plan.all ? plan.reason : null });
  let told = false;
  const digest = () => updateDigest(previous.digest, update.model.site, update.posts, ctx.derived);
  const deferred = await emitInPlace(ctx, state, update.model, previous, plan, r, digest, {
    targets: owned,
    served: (first) => {
      told = true;
      first.ms = performance.now() - started;
      return served(first);
    },
  });
  if (!told) r.ms = performance.now() - started;
  return { report: r, deferred };
}
