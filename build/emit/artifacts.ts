// The artifacts: files other parts of folio add to dist after the responses
// (the host files, the search index, the change log, the functions' data),
// each from the model and the manifest emit() made.
import type { Site } from '../core/model.js';
import type { SiteModel } from '../core/site-model.js';
import type { OutputFile } from './atomic.js';
import { changesFile, edgeFiles, edgeHead, type EdgeTags } from './edge.js';
import type { EdgeBefore } from './edge-before.js';
import type { EmitOptions } from './emit.js';
import { hostArtifact } from './hosts/index.js';
import type { BuildState } from './build-state.js';
import type { BuiltManifest } from './manifest.js';
import { searchIndexArtifact, type PreparedSearch } from './search-index.js';

/** What one emit() made beside the responses, for the artifacts: the model with its indexes, the search index started with the responses, and the edge files' tags as they are written. */
export interface EmitMade {
  model: SiteModel;
  search: PreparedSearch;
  edge: EdgeTags;
  /** What an edit of post bodies alone keeps of the previous build's edge files. */
  before: EdgeBefore | null;
  /** Whether the host files were the previous build's, read back, or printed (hosts/index.ts hostArtifact). */
  hosts?: 'kept' | 'printed';
  /** The previous build's state and a reader of its files, and this build's state: what an artifact may keep. */
  build: {
    previous: BuildState | null;
    state: BuildState;
    read: ((path: string) => Promise<Uint8Array | null>) | undefined;
  };
}

/**
 * Extra files other parts of folio add to dist (the search index, host
 * configs). The manifest is written before them, so they only read it. An
 * iterable is written as it yields, so its files need not all be in memory
 * at once.
 */
export type Artifact = (
  site: Site,
  manifest: BuiltManifest,
  options: EmitOptions,
  made: EmitMade,
) => Iterable<OutputFile> | Promise<OutputFile[]>;
// The edge files before the search index, whose thread they give time to
// finish; the edge head after both, for it names their tags, and last, so
// that a deployment read while it is written never finds a head without its files.
export const artifacts: Artifact[] = [hostArtifact, changesFile, edgeFiles, searchIndexArtifact, edgeHead];
