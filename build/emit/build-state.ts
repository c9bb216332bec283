// What a build leaves for the next one to compare against (incremental.ts):
// the digest of its site model and a record of every file it wrote. Kept in
// the cache (cache.ts) by v8.serialize, so a field added here is kept too.
import { withOwnHeaders } from '../core/files.js';
import type { Headers } from '../core/http.js';
import type { PostDigest } from '../derived.js';
import type { HostsMemo } from './hosts/index.js';
import type { SearchMemo } from './search-patch.js';
import type { SectionIndex } from './splice.js';

export interface SiteDigest {
  /** Everything but the posts, the change log and the build clock. */
  other: string;
  /** The build clock (`built_at`). */
  clock: string;
  /** The change log (D61): it follows from the rest, but for the record of earlier builds. */
  changes: string;
  /** Published slugs in site order. */
  order: string[];
  /** Per published post: the fields lists show, and the body. */
  posts: Map<string, PostDigest>;
}

/** One precomputed response of the previous build. */
export interface OutputRecord {
  file: string;
  /**
   * Tells whether the file changed between builds: its ETag (core/http.ts),
   * or for a document spliced from the previous file a tag made from that
   * file's and the edits (splice.ts splicedTag). Equal tags, equal bytes.
   */
  etag: string;
  size: number;
  /** Index into BuildState.headerSets. */
  set: number;
  /** The file's own headers (core/files.ts splitHeaders), when it has any. */
  own?: Headers;
}

export interface BuildState {
  /** The code that built it (see codeFingerprint): other code, other bytes. */
  fingerprint: string;
  digest: SiteDigest;
  routes: Map<string, OutputRecord>;
  headerSets: Headers[];
  /** Files outside the route table (404.html, site.json, artifacts, the manifest) → a hash and the size of their bytes. */
  extras: Map<string, { hash: string; size: number }>;
  /** Targets whose body comes as sections, and `_folio/site.json` → where each post's section lies in the file (splice.ts). */
  sections: Map<string, SectionIndex>;
  /** What the next build needs to patch the search index file of this one (search-patch.ts). */
  search?: SearchMemo;
  /** The manifest's targets in order, hashed: the next edit keeps route shards only when its own are the same (edge-before.ts). */
  targets?: string;
  /** What each document showed of posts' bodies beyond sections (core/documents bodiesShown), hashed: an edit keeps it when it shows the same. */
  shown?: Map<string, string>;
  /** The targets whose response read the day or the time of the build clock (core/clock.ts), and which. */
  clock?: Map<string, 'day' | 'time'>;
  /** Every post's related posts by position (SiteModel.relatedTable): an edit that keeps the posts' order and tags keeps them. */
  related?: Int32Array;
  /** What the host files were made from, and their paths (hosts/index.ts). */
  hosts?: HostsMemo;
  /** The output this build replaced, kept in the cache (spare.ts): its manifest's hash, and the files where it differs from this build's. */
  spare?: { manifest: string; changed: string[] };
}

/** The headers a record of a build answers with. */
export function recordHeaders(state: BuildState, record: OutputRecord): Headers {
  return withOwnHeaders(state.headerSets[record.set]!, record.own);
}
