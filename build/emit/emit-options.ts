// What emit() is given and what it returns: where the files go (a Sink),
// the previous build and the plan against it, and what was written.
import type { Headers } from '../core/http.js';
import type { BuiltManifest } from './manifest.js';
import type { HostOptions } from './hosts/index.js';
import type { MediaFile } from './images.js';
import type { Plan } from './incremental.js';
import type { BuildState, OutputRecord, SiteDigest } from './build-state.js';
import type { Edit } from './splice-file.js';
import type { SearchThread } from './search-thread.js';

/** Where emit() puts files: a staging directory, the dev server's directory, or memory. */
export interface Sink {
  write(path: string, body: Uint8Array | string): Promise<void>;
  /** The file at `path` is byte-identical to the previous build's; a promise only when the caller must wait. */
  reuse(path: string): Promise<void> | void;
  /** The previous build's file at `path`, when the sink can read it (the search index is patched from it). */
  read?(path: string): Promise<Uint8Array | null>;
  /**
   * Writes the file at `path` as the previous build's file there with
   * `edits` applied (a document of post sections, splice.ts); false, and
   * nothing written, when that file is not `size` bytes long.
   */
  splice?(path: string, size: number, edits: readonly Edit[]): Promise<boolean>;
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
  /** The search thread, started before the site was loaded to read the previous index meanwhile (search-thread.ts). */
  searchThread?: SearchThread | null;
  /** Makes the digest of `site` when the caller has a quicker way than digestSite (it has it already, or folio dev updates the previous one). */
  digest?: () => SiteDigest;
  /** The bytes of a file of content/static/ by its site path (D43); needed when the site has any. */
  readStatic?: (path: string) => Promise<Uint8Array>;
  /** The image files under /media/ (D44), routed through the manifest with their headers. */
  media?: readonly MediaFile[];
  /** Targets asked for before any other, then a pause (folio dev serves an edited post's own responses while the rest wait). */
  first?: FirstTargets;
}

export interface FirstTargets {
  targets: readonly string[];
  /**
   * Called once they are written, with their answers. False stops the build
   * there: every other target keeps the previous build's file, nothing else
   * is written, and the state says the posts those targets belong to are
   * pending, so a plan against it asks for their shared responses again.
   */
  then(answers: FirstAnswer[]): Promise<boolean>;
}

/** A first target as the build answered it: its file, its headers, and whether its bytes were written. */
export interface FirstAnswer {
  target: string;
  file: string;
  headers: Headers;
  written: boolean;
}

export interface EmitResult {
  manifest: BuiltManifest;
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
  /** Whether the host files were the previous build's, read back, or printed; unset until the artifacts ran. */
  hostFiles?: 'kept' | 'printed';
  /** Milliseconds: asking for every target, then the artifacts. */
  phases: { respond: number; artifacts: number };
  /**
   * With deferArtifacts: writes the artifacts and completes this result
   * (files, bytes, and the removed files of the previous build's artifacts;
   * its removed responses are in `removed` already); resolves with the files
   * it wrote. A caller that never calls it must keep the previous build's
   * artifact entries in `state.extras`, and its `state.search`, as folio
   * dev does.
   */
  artifacts?: () => Promise<string[]>;
  /** FirstTargets.then stopped the build: only the first targets were written, and `state` describes the output as it is. */
  stopped: boolean;
}

/** A response written but not yet routed (see ask in emit.ts). */
export interface Made {
  file: string;
  headers: Headers;
  written: boolean;
  record(): OutputRecord;
}
