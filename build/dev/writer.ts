// The writer of folio dev: responses go into the output directory in place,
// each file through a temporary name so a reader never sees half of it, and
// files that are gone go with their empty folders, as a clean build would
// not have them.
import { statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SiteModel } from '../core/site-model.js';
import { staticReader } from '../emit/build.js';
import { emit, type FirstAnswer, type Sink } from '../emit/emit.js';
import { MANIFEST_PATH, splitHeaders } from '../core/files.js';
import type { Headers } from '../core/http.js';
import { forgetState } from '../emit/cache.js';
import { spliceFile, type Edit } from '../emit/splice-file.js';
import type { Plan } from '../emit/incremental.js';
import type { BuildState, SiteDigest } from '../emit/build-state.js';
import type { DevContext, DevState, RebuildReport } from './state.js';

export function inPlaceSink(out: string): Sink {
  return {
    async write(path: string, body: Uint8Array | string) {
      const full = join(out, path);
      await mkdir(dirname(full), { recursive: true });
      const tmp = `${full}.folio-dev-${process.pid}`;
      await writeFile(tmp, body);
      await rename(tmp, full);
    },
    reuse: async () => undefined,
    // Before this build writes it, the file at a path is the previous build's.
    read: (path: string) => readFile(join(out, path)).catch(() => null),
    async splice(path: string, size: number, edits: readonly Edit[]) {
      const full = join(out, path);
      if ((await stat(full).catch(() => null))?.size !== size) return false;
      const tmp = `${full}.folio-dev-${process.pid}`;
      spliceFile(full, tmp, edits);
      await rename(tmp, full);
      return true;
    },
  };
}

export async function removeFile(out: string, path: string): Promise<void> {
  await rm(join(out, path), { force: true });
  for (let dir = dirname(join(out, path)); dir.startsWith(out + '/') && dir !== out; dir = dirname(dir)) {
    if (
      !(await rmdir(dir).then(
        () => true,
        () => false,
      ))
    )
      break;
  }
}

/**
 * Whether the output is still the one the state describes, as far as its
 * manifest tells: deleted while the session ran (rm -rf dist, git clean) or
 * replaced, it is built whole again rather than have a few files written
 * into it.
 */
export function outputIntact(out: string, build: BuildState): boolean {
  const size = statSync(join(out, MANIFEST_PATH), { throwIfNoEntry: false })?.size;
  return size !== undefined && size === build.extras.get(MANIFEST_PATH)?.size;
}

/** The saved build state describes the output only while the output is whole: forgotten before the output changes. */
export async function forgetSavedState(ctx: DevContext, state: DevState): Promise<void> {
  if (ctx.cacheDir && state.stateSaved) {
    await forgetState(ctx.cacheDir, ctx.out);
    state.stateSaved = false;
  }
}

/** The artifacts (search index, host files) of a rebuild: written later, or left to the next rebuild. */
export interface Deferred {
  later(): Promise<string[]>;
  skip(): void;
}

/** Targets to write before the rest, and what to do once they are: false leaves the rest to the next rebuild. */
export interface First {
  targets: readonly string[];
  served(r: RebuildReport): Promise<boolean>;
}

/**
 * Writes every response the plan asks for, the model and the manifest, and
 * records them in the report; the artifacts are left to the returned
 * `later`. With `first`, those targets are written before any other and,
 * when the server can serve them as they are (the same files, the same
 * headers but for a twin's token estimate), handed to `first.served`, which
 * may stop the rebuild there: then null.
 */
export async function emitInPlace(
  ctx: DevContext,
  state: DevState,
  model: SiteModel,
  previous: BuildState,
  plan: Plan,
  r: RebuildReport,
  digest: () => SiteDigest,
  first?: First,
): Promise<Deferred | null> {
  const { out } = ctx;
  const shown = new Set<string>();
  const then = async (answers: FirstAnswer[]) => {
    if (!answers.every((a) => servedAsBefore(a, previous))) return true;
    const fresh = answers.filter((a) => a.written);
    for (const a of fresh) shown.add(a.target);
    r.targets.push(...fresh.map((a) => a.target));
    r.files.changed.push(...fresh.map((a) => a.file));
    return first!.served(r);
  };
  await forgetSavedState(ctx, state);
  const emitted = await emit(model, inPlaceSink(out), {
    previous,
    plan,
    deferArtifacts: true,
    digest,
    media: state.media,
    readStatic: staticReader(ctx.options.content, state.sources),
    first: first && { targets: first.targets, then },
  });
  state.build = emitted.state;
  if (emitted.stopped) return null;
  const earlier = new Set([...[...previous.routes.values()].map((o) => o.file), ...previous.extras.keys()]);
  const written = new Set(emitted.written);
  r.targets.push(...[...emitted.state.routes].filter(([t, o]) => written.has(o.file) && !shown.has(t)).map(([t]) => t));
  // Responses that are gone go now; artifacts that are gone, once the artifacts ran.
  const gone = [...emitted.removed];
  await Promise.all(gone.map((f) => removeFile(out, f)));
  r.files.added = emitted.written.filter((f) => !earlier.has(f));
  r.files.changed = emitted.written.filter((f) => earlier.has(f));
  r.files.removed.push(...gone);
  return {
    async later() {
      const more = await emitted.artifacts!();
      const alsoGone = emitted.removed.slice(gone.length);
      await Promise.all(alsoGone.map((f) => removeFile(out, f)));
      r.files.added.push(...more.filter((f) => !earlier.has(f)));
      r.files.changed.push(...more.filter((f) => earlier.has(f)));
      r.files.removed.push(...alsoGone);
      return more;
    },
    // Another change is waiting: its rebuild writes the artifacts instead.
    // Until then the previous ones are on disk, and the state must say so.
    // The next rebuild's plan compares its model with this one, not with the
    // one those artifacts were made from: the edge files and the search index
    // keep what that plan does not ask for again (edge-before.ts, the search
    // patch job), so they would keep what this rebuild changed. Without the
    // targets' digest and the search memo, the next rebuild makes them whole.
    // The host files compare the manifest with their own memo: kept.
    skip() {
      for (const [file, entry] of previous.extras) if (!emitted.state.extras.has(file)) emitted.state.extras.set(file, entry);
      emitted.state.targets = undefined;
      emitted.state.search = undefined;
      emitted.state.hosts ??= previous.hosts;
    },
  };
}

/**
 * A first target the server can serve at once, before the new manifest: at
 * the previous build's file, with its headers but for a twin's token
 * estimate, which follows the body (it is right once the manifest is).
 */
function servedAsBefore(a: FirstAnswer, previous: BuildState): boolean {
  const was = previous.routes.get(a.target);
  if (!was || was.file !== a.file) return false;
  const { shared, own } = splitHeaders(a.headers);
  const tokensAside = (h: Headers | undefined) => JSON.stringify({ ...h, 'x-markdown-tokens': '' });
  return JSON.stringify(shared) === JSON.stringify(previous.headerSets[was.set]) && tokensAside(own) === tokensAside(was.own);
}
