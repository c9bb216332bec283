// An incremental build's search index (D56): the previous build's index
// with the changed documents taken out and put back in, instead of every
// document inserted again (at 10,000 posts, 3-5 s of the search thread,
// longer than the rest of a one-post edit). The result is the index
// a clean build makes, byte for byte: the tree and the counts are saved in
// the order of their words (core/search/tree.ts encodeWords), the lengths
// and averages are those of the same documents in the same order, and
// test/search-patch.test.ts and test/incremental-*.test.ts compare the two.
//
// It patches only what it can prove: the same documents in the same order
// (internal ids are insertion order), the previous index file exactly as the
// previous build wrote it, and few changed documents. Anything else builds
// the index whole.
import { hash } from 'node:crypto';
import { decodeCounts, decodeIds, encodeCounts, encodeIds } from '../core/search/codec.js';
import { DocLines } from '../core/search/docs.js';
import {
  SEARCH_FIELDS,
  SEARCH_INDEX_FORMAT,
  SEARCH_INDEX_VERSION,
  type CompactField,
  type SearchField,
  type SearchIndexData,
  type SearchIndexFile,
  type StoredDoc,
} from '../core/search/format.js';
import type { SearchLanguage } from '../core/search/language.js';
import { compactWords, encodeWords } from '../core/search/tree.js';
import { vocabularyOf } from '../core/search/typo.js';
import { toDocument, type SearchSource } from './search-sources.js';

/** What the next build needs to patch an index: kept in the build state beside the file it describes. */
export interface SearchMemo {
  /** The `hash` of the index file it describes ("sha256:…"). */
  hash: string;
  /** Per document, in internal id order: a digest of its source. */
  digests: string[];
  /** Per document: its tags, the one searched field the index does not store. */
  tags: string[];
  /** Each word of the vocabulary's source → how many documents hold it. */
  words: Map<string, number>;
}

/** The previous build's index file and what its build remembered of it. */
export interface PreviousIndex {
  memo: SearchMemo;
  /** The file's bytes, or (`read`) the file as the search thread read it before the build asked (search-thread.ts). */
  bytes?: Uint8Array;
  read?: IndexRead | null;
  /** The file's hash as the previous build recorded it (ledger.ts sha1). */
  sha1: string;
  /** The hashes the previous build recorded its search shards with, by path: a shard cut the same again is not sent back to be written. */
  shards: Map<string, string>;
  /** The tags of the previous build's files of stored documents (its search head's), when that head is the one its state describes. */
  docTags?: string;
  /** Its term shards, when that head is the one its state describes: the head's first terms and tags, and each file's bytes (null when unreadable). */
  terms?: { firsts: string[]; tags: string; files: (Uint8Array | null)[] };
}

/** Above this share of changed documents (and this many), inserting them all is as quick as patching. */
const MAX_CHANGED_SHARE = 0.1;
const MIN_CHANGED = 8;

/** Whether `changed` of `documents` documents is few enough to patch rather than insert them all. */
export function fewEnoughToPatch(changed: number, documents: number): boolean {
  return changed <= Math.max(MIN_CHANGED, documents * MAX_CHANGED_SHARE);
}

/** A source's digest: anything in it may change what the index holds. */
export function sourceDigest(source: SearchSource): string {
  return hash('sha1', JSON.stringify(source), 'base64');
}

type Fields = Record<SearchField, string>;

/** The distinct words of a document's fields, as the vocabulary counts them. */
export function documentWords(d: Fields, language: SearchLanguage): Set<string> {
  const words = new Set<string>();
  for (const field of SEARCH_FIELDS) for (const w of language.words(d[field])) words.add(w);
  return words;
}

/** The vocabulary of the words some document holds. */
export function vocabularyFromCounts(words: Map<string, number>, language: SearchLanguage): Record<string, string> {
  return vocabularyOf(
    [...words].filter(([, n]) => n > 0).map(([w]) => w),
    language.inVocabulary,
    language.fold,
  );
}

const byKey = ([a]: readonly [string, unknown], [b]: readonly [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Gives `tokens` their postings in one field again: the documents that keep
 * each token, with their occurrences, then the `changed` ones that hold it
 * now (`now`); the tree and the counts saved again in the order of their words.
 */
function repost(
  saved: CompactField,
  tokens: ReadonlySet<string>,
  changed: readonly number[],
  now: (id: number) => Map<string, number>,
): void {
  const tree = compactWords(saved.tree);
  const counts = new Map(Object.entries(saved.counts));
  const gone = new Set(changed);
  for (const token of tokens) {
    const held = decodeIds(tree.get(token) ?? '');
    const occurrences = decodeCounts(counts.get(token) ?? '', held);
    const postings: number[] = [];
    const often: Record<number, number> = {};
    held.forEach((id, i) => {
      if (gone.has(id)) return;
      postings.push(id);
      if (occurrences[i]! > 1) often[id] = occurrences[i]!;
    });
    for (const id of changed) {
      const n = now(id).get(token);
      if (n === undefined) continue;
      postings.push(id);
      if (n > 1) often[id] = n;
    }
    postings.sort((a, b) => a - b);
    if (postings.length > 0) tree.set(token, encodeIds(postings));
    else tree.delete(token);
    if (Object.keys(often).length > 0) counts.set(token, encodeCounts(often));
    else counts.delete(token);
  }
  saved.tree = encodeWords([...tree].sort(byKey));
  saved.counts = Object.fromEntries([...counts].sort(byKey));
}

/** An index file as read: the SHA-1 of its bytes (as ledger.ts hashes them), and its content, or null when it is not JSON. */
export interface IndexRead {
  sha1: string;
  file: SearchIndexFile | null;
}

export function readIndex(bytes: Uint8Array): IndexRead {
  const sha1 = hash('sha1', bytes, 'base64');
  try {
    return { sha1, file: JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as SearchIndexFile };
  } catch {
    return { sha1, file: null };
  }
}

/**
 * A patched index: its data, whose stored documents are in `docs` (the text
 * of the previous ones with the changed ones put in: `data.orama.docs` is
 * only the previous text); the vocabulary's words; the changed documents;
 * and the tokens whose postings, counts or field lengths may have moved.
 */
export interface Patched {
  data: SearchIndexData;
  docs: DocLines;
  words: Map<string, number>;
  changed: number[];
  touched: Set<string>;
}

/**
 * The index with the changed sources patched in, or null when it cannot be
 * proven to equal a fresh one (then the caller builds it whole): among
 * others, when the previous index is of another language. `digests` are the
 * sources' (sourceDigest); of a source whose digest is the previous build's,
 * only the id is read.
 */
export function patchIndex(
  previous: PreviousIndex,
  sources: readonly SearchSource[],
  digests: readonly string[],
  siteUrl: string,
  language: SearchLanguage,
): Patched | null {
  const { memo } = previous;
  const read = previous.read ?? (previous.bytes ? readIndex(previous.bytes) : null);
  if (read?.sha1 !== previous.sha1 || !read.file) return null;
  const { file } = read;
  const { data } = file;
  if (file.format !== SEARCH_INDEX_FORMAT || file.version !== SEARCH_INDEX_VERSION || file.hash !== memo.hash) return null;
  const ids = data.orama.internalDocumentIDStore.internalIdToId;
  if (data.site_url !== siteUrl || data.orama.language !== language.name) return null;
  if (JSON.stringify(data.stop_words ?? []) !== JSON.stringify(language.stopWords)) return null;
  if (ids.length !== sources.length || memo.digests.length !== sources.length) return null;
  if (sources.some((s, i) => s.id !== ids[i])) return null;
  const changed = digests.flatMap((d, i) => (d === memo.digests[i] ? [] : [i + 1]));
  if (!fewEnoughToPatch(changed.length, sources.length)) return null;
  // The tokens whose entries in the term shards may move: no other term's postings, counts or field lengths can.
  const touched = new Set<string>();
  const stored = new DocLines(data.orama.docs);
  if (changed.length === 0) return { data, docs: stored, words: memo.words, changed, touched };

  const replaced = new Map<number, StoredDoc>();
  const words = new Map(memo.words);
  const tokenizer = language.tokenizer();
  // Tokenized as Orama's insert tokenizes (core/search/orama.ts): each token once per occurrence.
  const counted = (text: string, field: SearchField) => {
    const counts = new Map<string, number>();
    for (const token of tokenizer.tokenize(text, undefined, field, true)) counts.set(token, (counts.get(token) ?? 0) + 1);
    return counts;
  };
  // Per field, the tokens whose occurrences in some changed document moved, and what each changed document holds now.
  const moved = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, new Set<string>()])) as Record<SearchField, Set<string>>;
  const holding = new Map<number, Record<SearchField, Map<string, number>>>();
  for (const id of changed) {
    const was = stored.get(id)!;
    const before: Fields = { title: was[2], summary: was[3], tags: memo.tags[id - 1]!, body: was[6] };
    const now = toDocument(sources[id - 1]!);
    replaced.set(id, now.stored);
    for (const w of documentWords(before, language)) words.set(w, words.get(w)! - 1);
    for (const w of documentWords(now, language)) words.set(w, (words.get(w) ?? 0) + 1);
    const held = {} as Record<SearchField, Map<string, number>>;
    for (const field of SEARCH_FIELDS) {
      const [then, is] = [counted(before[field], field), counted(now[field], field)];
      for (const [token, n] of then) if (is.get(token) !== n) moved[field].add(token);
      for (const [token, n] of is) if (then.get(token) !== n) moved[field].add(token);
      held[field] = is;
      let length = 0;
      for (const n of is.values()) length += n;
      const { lengths } = data.orama.index[field];
      // A term shard shows the field's length in each posted document: a new length touches every term of the field.
      for (const token of lengths[id] === length ? moved[field] : [...then.keys(), ...is.keys()]) touched.add(token);
      lengths[id] = length;
    }
    holding.set(id, held);
  }
  for (const w of [...words.keys()]) if (words.get(w) === 0) words.delete(w);

  for (const field of SEARCH_FIELDS) {
    const saved = data.orama.index[field];
    // A token whose occurrences no changed document moved keeps its postings: an appended sentence
    // moves a few of a post's hundred tokens, and a field none of whose tokens moved keeps its tree.
    if (moved[field].size > 0) repost(saved, moved[field], changed, (id) => holding.get(id)![field]);
    // Orama's running average, document by document in insertion order (orama.ts insertDocumentScoreParameters).
    let average = 0;
    for (let id = 1; id < saved.lengths.length; id++) average = (average * (id - 1) + saved.lengths[id]!) / id;
    saved.average = average;
  }
  data.vocabulary = vocabularyFromCounts(words, language);
  return { data, docs: stored.with(replaced), words, changed, touched };
}
