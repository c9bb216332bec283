// The writer of folio dev: responses go into the output directory in place,
// each file through a temporary name so a reader never sees half of it, and
// files that are gone go with their empty folders, as a clean build would
// not have them.
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SiteModel } from '../core/site-model.js';
import { staticReader } from '../emit/build.js';
import { emit, type Sink } from '../emit/emit.js';
import { forgetState } from '../emit/cache.js';
import type { BuildState, Plan, SiteDigest } from '../emit/incremental.js';
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

/**
 * Writes every response the plan asks for, the model and the manifest, and
 * records them in the report; the artifacts are left to the returned `later`.
 */
export async function emitInPlace(
  ctx: DevContext,
  state: DevState,
  model: SiteModel,
  previous: BuildState,
  plan: Plan,
  r: RebuildReport,
  digest?: SiteDigest,
): Promise<Deferred> {
  const { out } = ctx;
  const emitted = await emit(model, inPlaceSink(out), {
    previous,
    plan,
    deferArtifacts: true,
    digest,
    media: state.media,
    readStatic: staticReader(ctx.options.content, state.sources),
  });
  state.build = emitted.state;
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
    skip() {
      for (const [file, entry] of previous.extras) if (!emitted.state.extras.has(file)) emitted.state.extras.set(file, entry);
    },
  };
}
