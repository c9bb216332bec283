// What folio dev carries from one rebuild to the next, in one object: the
// rebuilds read and replace its fields, and nothing else holds state.
import { resolve } from 'node:path';
import type { MediaFile } from '../emit/images.js';
import type { Source } from '../content/frontmatter.js';
import type { ContentSources } from '../content/load.js';
import type { Problem } from '../content/problems.js';
import type { SiteModel } from '../core/site-model.js';
import type { RecordCache } from '../emit/record-cache.js';
import type { Remembered } from '../emit/documents.js';
import type { BuildState } from '../emit/build-state.js';
import type { ReadContent } from '../site.js';
import { Derived } from '../derived.js';

export interface DevOptions {
  content: string;
  out: string;
  /** The build clock of the whole session. */
  now: Date;
  siteUrl?: string;
  cache: string | false;
  workers?: number;
  port: number;
  host: string;
  log(line: string): void;
  color?: boolean;
  /** Quiet time after the last file event before a rebuild starts. */
  debounceMs?: number;
  /** How long the artifacts of a rebuild wait at most for requests to pause, so open pages reload first (5 s). */
  maxGraceMs?: number;
}

export interface RebuildReport {
  ok: boolean;
  /** From the change to the new responses being served. */
  ms: number;
  /** Until the artifacts (search index, host files) were written too. */
  totalMs?: number;
  /** Content files added, changed or removed (as shown in messages). */
  sources: { added: string[]; changed: string[]; removed: string[] };
  /** Image files and folders that came, went or changed (as shown in messages): no content file says so (D44). */
  images?: string[];
  /** Output files added, changed or removed, relative to the output directory. */
  files: { added: string[]; changed: string[]; removed: string[] };
  /** Request targets whose bytes changed: open pages at these paths reload. */
  targets: string[];
  /** Why every response was asked for again, when it was. */
  full: string | null;
  problems: Problem[];
  /** Posts among the changed files that the session's clock does not publish (D2): drafts, and those dated after its day. */
  held?: HeldPost[];
}

export interface HeldPost {
  file: string;
  /** The post's date when it is dated after the clock's day; null for a draft. */
  date: string | null;
}

/** The settings of a session, fixed at its start. */
export interface DevContext {
  options: DevOptions;
  /** The output directory, absolute. */
  out: string;
  /** Where the cache and the build state are saved, or null for none. */
  cacheDir: string | null;
  records: RecordCache | null;
  /** Records of files read in this session, by their Source (a file not read again keeps its Source). */
  memo: WeakMap<Source, Remembered>;
  /** What was derived from those records (the model's posts with absolute links, their digests). */
  derived: Derived;
}

/** The state that crosses rebuilds. */
export interface DevState {
  /** The content files as last read. */
  sources: ContentSources;
  /** What the output on disk holds; null before the first good build. */
  build: BuildState | null;
  /** The problems of the last rebuild: while there are any, the output is the last good build. */
  problems: Problem[];
  /** Whether the saved build state in the cache describes the output. */
  stateSaved: boolean;
  /** The records and the model the responses on disk were made from, for the next edit of a post's body. */
  model: { content: ReadContent; model: SiteModel } | null;
  /** Each post's own targets, for the routes of the last whole rebuild. */
  owners: Map<string, string[]> | null;
  /** Set while files on disk are older than the responses (a rebuild left them to the next one). */
  artifactsBehind: boolean;
  /** The image files of the last rebuild that resolved images (D44); a post edit adds its own. */
  media: readonly MediaFile[];
  /** An image file, or a folder, came, went or changed in this batch (D44): the model may change although no content file did. */
  imagesChanged: boolean;
}

/** A session's settings, with its cache and the memos of what it read. */
export function devContext(options: DevOptions, records: RecordCache | null): DevContext {
  return { options, out: resolve(options.out), cacheDir: options.cache || null, records, memo: new WeakMap(), derived: new Derived() };
}

/** The state before the first build: the content as read, nothing built. */
export function initialState(sources: ContentSources): DevState {
  return {
    sources,
    build: null,
    problems: [],
    stateSaved: false,
    model: null,
    owners: null,
    artifactsBehind: false,
    media: [],
    imagesChanged: false,
  };
}

export function emptySources(dir: string): ContentSources {
  return { dir, site: null, profile: null, services: [], posts: [], projects: [] };
}
