// The search index (D12), built once per build from the site model and
// written to dist/_folio/search-index.json; the functions load it on the
// first search. Build-only: the Orama insert path stays here. On a large
// site it is built on a thread of its own (search-worker.ts), started with
// the build's responses rather than after them, so the two overlap; its files
// are made in search-files.ts.
import { insert, save } from '@orama/orama';
import { EDGE_DIR, SEARCH_HEAD_PATH, termShardPath } from '../core/edge.js';
import { SEARCH_INDEX_PATH } from '../core/files.js';
import type { BuiltManifest } from './manifest.js';
import type { Site } from '../core/model.js';
import { DocLines } from '../core/search/docs.js';
import type { SearchIndexData } from '../core/search/format.js';
import type { SearchLanguage } from '../core/search/language.js';
import { createSearchDb } from '../core/search/orama.js';
import type { SearchHead } from '../core/search/shards.js';
import type { OutputFile } from './atomic.js';
import { untaggedHash } from './edge.js';
import type { Sink } from './emit-options.js';
import type { Plan } from './incremental.js';
import type { BuildState } from './build-state.js';
import { searchFiles, type SearchFiles } from './search-files.js';
import { siteSearchLanguage } from './search-language.js';
import {
  documentWords,
  fewEnoughToPatch,
  patchIndex,
  sourceDigest,
  vocabularyFromCounts,
  type PreviousIndex,
  type SearchMemo,
} from './search-patch.js';
import { isWhole, searchSources, toDocument, type KeptSource, type SearchSource } from './search-sources.js';
import { SearchThread } from './search-thread.js';
import { workerScript } from './workers.js';

/**
 * The index file: versioned, with a SHA-256 of its data, as UTF-8 bytes,
 * patched from the previous build's where search-patch.ts can, else made
 * whole; and its shards (core/search/shards.ts), each tagged by its content.
 * search-worker.ts runs it too. Each source is let go once indexed
 * (`sources` is emptied): on the thread, that copy of every post's Markdown
 * was the largest thing held while the index was saved (the peak of memory).
 */
export function indexBytes(
  sources: (SearchSource | undefined)[],
  siteUrl: string,
  language: SearchLanguage,
  previous: PreviousIndex | null = null,
  collect?: () => void,
): SearchFiles {
  const digests = sources.map((s) => sourceDigest(s!));
  const tags = sources.map((s) => s!.tags);
  const documents = sources.length;
  const patched = previous && patchIndex(previous, sources as SearchSource[], digests, siteUrl, language);
  const index = patched ?? wholeIndex(sources, siteUrl, language);
  // The search thread lets Orama's database go before the shards and the text
  // are made: at 10,000 posts the two together were the build's peak of memory.
  collect?.();
  return searchFiles(index, documents, digests, tags, previous, patched ?? undefined);
}

/**
 * What the search thread is sent after an edit that the previous index can
 * take as a patch: every source's digest and tags, and the sources whose
 * digest changed, the others reduced to their id: all 10,000 sources would
 * take the thread 0.4 s to receive.
 */
export interface PatchJob {
  sources: SearchSource[];
  digests: string[];
  tags: string[];
}

/**
 * The patch job for these sources against the previous build's memo, or null
 * when they are too many or too changed to patch. A kept source (KeptSource)
 * is the previous build's at the same place and takes its digest from the
 * memo (at 10,000 posts, hashing every source costs 0.25 s).
 */
export function patchJob(sources: readonly (SearchSource | KeptSource)[], memo: SearchMemo): PatchJob | null {
  if (memo.digests.length !== sources.length) return null;
  const digests = sources.map((s, i) => (isWhole(s) ? sourceDigest(s) : memo.digests[i]!));
  const changed = digests.filter((d, i) => d !== memo.digests[i]).length;
  if (!fewEnoughToPatch(changed, sources.length)) return null;
  return {
    sources: sources.map((s, i) => (digests[i] !== memo.digests[i] && isWhole(s) ? s : ({ id: s.id } as SearchSource))),
    digests,
    tags: sources.map((s) => s.tags),
  };
}

/** The files of a patch job, or null when the previous index cannot take it (then the index is made whole). */
export function patchedFiles(job: PatchJob, siteUrl: string, previous: PreviousIndex, language: SearchLanguage): SearchFiles | null {
  const patched = patchIndex(previous, job.sources, job.digests, siteUrl, language);
  return patched && searchFiles(patched, job.sources.length, job.digests, job.tags, previous, patched);
}

/** Every source inserted into a new Orama database, the engine of record, and saved. */
function wholeIndex(
  sources: (SearchSource | undefined)[],
  siteUrl: string,
  language: SearchLanguage,
): { data: SearchIndexData; docs: DocLines; words: Map<string, number> } {
  const db = createSearchDb(language);
  const words = new Map<string, number>();
  for (let i = 0; i < sources.length; i++) {
    const d = toDocument(sources[i]!);
    sources[i] = undefined;
    insert(db, d as never);
    for (const w of documentWords(d, language)) words.set(w, (words.get(w) ?? 0) + 1);
  }
  const data: SearchIndexData = {
    site_url: siteUrl,
    orama: save(db) as never,
    vocabulary: vocabularyFromCounts(words, language),
    ...(language.stopWords.length > 0 ? { stop_words: [...language.stopWords] } : {}),
  };
  return { data, docs: new DocLines(data.orama.docs), words };
}

/** The index file for a site, on this thread. */
export async function buildSearchIndex(site: Site): Promise<Uint8Array> {
  return indexBytes(searchSources(site), site.config.site_url, await siteSearchLanguage(site.config.language)).bytes;
}

/** Below this many documents a thread costs more to start than the index takes to build. */
const MIN_DOCUMENTS_FOR_THREAD = 300;

/** Where the search shards are, the search head aside (core/edge.ts). */
const SEARCH_SHARDS = `${EDGE_DIR}/search/`;

/** What the search worker answers: the files, or `unpatched` when the previous index could not take the patch job. */
export type SearchWorkerReply = SearchFiles | { unpatched: true } | { error: string };

/** What the search worker is sent: a patch job and the previous index, or every source to index whole; and the site's language (BCP 47). */
export type SearchWorkerData = { siteUrl: string; language: string } & (
  { job: PatchJob; previous: PreviousIndex; sources?: never } | { sources: SearchSource[]; job?: never; previous?: never }
);

/** The index of one build, being made on its own thread while emit() asks for the responses (on a small site, nothing: the artifact makes it). */
export interface PreparedSearch {
  /** The previous build's index, to patch (search-patch.ts). */
  previous: PreviousIndex | null;
  /** What the next build needs to patch the index written, once the artifact has it. */
  memo: SearchMemo | null;
  /** The tag of the search shards' head, for the edge head (edge.ts), once the artifact has it. */
  tag: string | null;
  /** The thread's answer, handed over once: the artifact lets it go when written (at 10,000 posts it is tens of MB). */
  take(): Promise<SearchFiles | null> | null;
  /** Resolves once the thread, if one runs, has answered or failed (the artifact reports a failure). */
  settled(): Promise<void>;
}

/**
 * Starts building the site's index on a thread of its own, so that it is
 * made while the build asks for the responses; searchIndexArtifact then
 * takes the result. Small sites, and folio run from its TypeScript sources
 * without the compiled worker, build it on this thread when it is asked for.
 */
export function prepareSearchIndex(
  site: Site,
  previous: PreviousIndex | null,
  early: SearchThread | null = null,
  plan?: Plan,
): PreparedSearch {
  const script =
    site.posts.length + site.projects.length + site.services.length >= MIN_DOCUMENTS_FOR_THREAD ? workerScript('search-worker') : null;
  let files: Promise<SearchFiles | null> | null = null;
  if (script) {
    // After an edit of bodies alone (the same posts in the same order), every other source is the previous build's.
    const job =
      previous &&
      plan?.all === false &&
      patchJob(
        searchSources(site, (type, key) => type !== 'post' || !plan.changed.has(key)),
        previous.memo,
      );
    const { site_url: siteUrl, language } = site.config;
    const thread = early ?? new SearchThread(script, null);
    files = thread.run(job ? { siteUrl, language, job, previous: previous! } : { siteUrl, language, sources: searchSources(site) });
  } else early?.stop();
  // The thread has the previous file now (its bytes moved there): a build on this thread makes the index whole.
  if (files) previous = null;
  // Handled when the artifact awaits it; never an unhandled rejection before then.
  files?.catch(() => undefined);
  let held = files;
  const take = () => {
    const taken = held;
    held = null;
    return taken;
  };
  return { previous, memo: null, tag: null, take, settled: async () => void (await held?.catch(() => undefined)) };
}

/**
 * The previous build's index file, when its state remembers enough to patch
 * it: its bytes, or none when `thread` reads the file itself.
 */
export async function readPreviousIndex(
  previous: BuildState | null,
  sink: Sink,
  thread: SearchThread | null,
): Promise<PreviousIndex | null> {
  const memo = previous?.search;
  const sha1 = previous?.extras.get(SEARCH_INDEX_PATH)?.hash;
  if (!memo || !sha1) return null;
  const shards = new Map([...previous.extras].filter(([file]) => file.startsWith(SEARCH_SHARDS)).map(([file, { hash }]) => [file, hash]));
  const { docTags, terms } = await previousHead(previous, sink);
  if (thread?.file) return { memo, sha1, shards, docTags, terms };
  const bytes = sink.read && (await sink.read(SEARCH_INDEX_PATH));
  return bytes ? { memo, bytes, sha1, shards, docTags, terms } : null;
}

/**
 * From the previous build's search head, when that is the file its state
 * describes: the tags of its files of stored documents, and its term shards
 * (at 10,000 posts, 126 files and 6 MB, read here so that the thread can cut
 * the shards again from them).
 */
async function previousHead(previous: BuildState, sink: Sink): Promise<Pick<PreviousIndex, 'docTags' | 'terms'>> {
  const bytes = sink.read && (await sink.read(SEARCH_HEAD_PATH));
  const text = bytes && Buffer.from(bytes).toString('utf8');
  if (!text || untaggedHash(text) !== previous.extras.get(SEARCH_HEAD_PATH)?.hash) return {};
  const head = JSON.parse(text) as Partial<SearchHead>;
  const docTags = typeof head.doc_tags === 'string' ? head.doc_tags : undefined;
  const { terms: firsts, term_tags: tags } = head;
  if (!Array.isArray(firsts) || typeof tags !== 'string') return { docTags };
  const files = await Promise.all(firsts.map((_, n) => sink.read!(termShardPath(n))));
  return { docTags, terms: { firsts, tags, files } };
}

/** Registered in emit/artifacts.ts: the index emit() prepared, or made here. */
export async function searchIndexArtifact(
  site: Site,
  _manifest: BuiltManifest,
  _options: unknown,
  { search: prepared }: { search: PreparedSearch },
): Promise<OutputFile[]> {
  const { bytes, shards, tag, memo } =
    (await prepared.take()) ??
    indexBytes(searchSources(site), site.config.site_url, await siteSearchLanguage(site.config.language), prepared.previous);
  prepared.memo = memo;
  prepared.tag = tag;
  return [{ path: SEARCH_INDEX_PATH, body: bytes }, ...shards];
}
