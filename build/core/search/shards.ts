// The search index split for the functions (D12, D55), the way Pagefind
// splits its own: term shards keyed by term range, each holding the postings
// of its terms with what scoring needs (occurrences and field lengths per
// posting); the stored documents in small fixed-size files; and the
// vocabulary for one-typo corrections split by first and by last letter (a
// word one edit away shares at least one of them). A query reads the shards
// of its words and the documents of its hits, nothing else. Made from Orama's
// saved index (./orama.ts), which stays the engine of record.
import {
  docsPath,
  EDGE_FORMAT,
  EDGE_VERSION,
  SEARCH_DOCS_PER_FILE,
  SEARCH_HEAD_PATH,
  vocabularyPath,
  type TaggedFile,
  type Tagger,
} from '../edge.js';
import { DocLines } from './docs.js';
import { SEARCH_FIELDS, type SearchField, type SearchIndexData, type StoredDoc } from './format.js';
import { foldWord } from './fold.js';
import { cutTerms, type TermsBefore } from './term-cut.js';
import { ENGLISH_NAME } from './tokenizer.js';

export type { PreviousTerms, TermsBefore } from './term-cut.js';

/** One term in one field: postings (./codec.ts encodeIds), occurrences above one (encodeCounts, or ""), field lengths per posting (base 36, comma-separated). */
export type TermField = [ids: string, counts: string, lengths: string];
export type TermEntry = Partial<Record<SearchField, TermField>>;

export interface SearchHead {
  tag: string;
  format: typeof EDGE_FORMAT;
  version: number;
  site_url: string;
  /** The index's language (./language.ts) and its stop words, absent for English: the functions tokenize queries as the build did. */
  language?: string;
  stop_words?: string[];
  /** How many documents the index holds (internal ids 1..docs). */
  docs: number;
  /** Average token count of each field. */
  average: Record<SearchField, number>;
  /** The first term of each term shard, ascending: a term lives in the last shard whose first term is not after it. */
  terms: string[];
  /** The tag of each term shard, end to end (core/edge.ts tagAt), in the order of `terms`. */
  term_tags: string;
  /** The tag of each file of stored documents, end to end. */
  doc_tags: string;
  /** Letters with vocabulary words starting (`f`) or ending (`l`) with them once folded, each with the tag of its file. */
  vocabulary: { f: Record<string, string>; l: Record<string, string> };
}

export interface TermShard {
  tag: string;
  terms: Record<string, TermEntry>;
}

export interface DocsFile {
  tag: string;
  /** Documents from internal id `first`, in order. */
  first: number;
  docs: StoredDoc[];
}

export interface VocabularyFile {
  tag: string;
  /** Words by length, sorted, space-separated (the index's vocabulary, restricted to one letter). */
  words: Record<string, string>;
}

/** A shard the previous build wrote as this one would: its tag, which the search head names (its bytes are on disk). */
export interface KeptShard {
  path: string;
  tag: string;
  kept: true;
}

/**
 * The shard files of a saved index, with their paths and tags (`tagged` puts
 * each in); the head first. A file of stored documents for which `keptDocs`
 * gives a tag is not made: the previous build's is the same. With `before`,
 * the term shards are cut again from the previous build's (term-cut.ts).
 * `docs` are the stored documents, when they are not `data`'s own (a patched
 * index's: search-patch.ts).
 */
export function searchShards(
  data: SearchIndexData,
  tagged: Tagger,
  keptDocs: (n: number) => string | null = () => null,
  before?: TermsBefore,
  docs = new DocLines(data.orama.docs),
): (({ path: string } & TaggedFile) | KeptShard)[] {
  const cut = cutTerms(data.orama.index, tagged, before);
  const files = [...cut.files];
  const { firsts, tags: termTags } = cut;

  let docTags = '';
  for (let first = 1; first <= docs.count; first += SEARCH_DOCS_PER_FILE) {
    const n = (first - 1) / SEARCH_DOCS_PER_FILE;
    const kept = keptDocs(n);
    if (kept !== null) {
      docTags += kept;
      files.push({ path: docsPath(n), tag: kept, kept: true });
      continue;
    }
    const group: StoredDoc[] = [];
    for (let id = first; id < first + SEARCH_DOCS_PER_FILE && id <= docs.count; id++) group.push(docs.get(id)!);
    const file = tagged({ first, docs: group } satisfies Omit<DocsFile, 'tag'>);
    docTags += file.tag;
    files.push({ path: docsPath(n), ...file });
  }

  // An English vocabulary is of a-z alone, which folding leaves as it is.
  const { language } = data.orama;
  const fold = language === ENGLISH_NAME ? (word: string) => word : foldWord;
  const byLetter = { f: new Map<string, Map<string, string[]>>(), l: new Map<string, Map<string, string[]>>() };
  for (const [length, list] of Object.entries(data.vocabulary)) {
    for (const word of list.split(' ').filter(Boolean)) {
      const key = fold(word);
      for (const [end, letter] of [
        ['f', key[0]!],
        ['l', key[key.length - 1]!],
      ] as const) {
        const lengths = byLetter[end].get(letter) ?? byLetter[end].set(letter, new Map()).get(letter)!;
        (lengths.get(length) ?? lengths.set(length, []).get(length)!).push(word);
      }
    }
  }
  const vocabulary: SearchHead['vocabulary'] = { f: {}, l: {} };
  for (const end of ['f', 'l'] as const) {
    for (const letter of [...byLetter[end].keys()].sort()) {
      const words = Object.fromEntries([...byLetter[end].get(letter)!].map(([length, list]) => [length, list.join(' ')]));
      const file = tagged({ words } satisfies Omit<VocabularyFile, 'tag'>);
      vocabulary[end][letter] = file.tag;
      files.push({ path: vocabularyPath(end, letter), ...file });
    }
  }

  const average = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, data.orama.index[f].average])) as Record<SearchField, number>;
  const head = tagged({
    format: EDGE_FORMAT,
    version: EDGE_VERSION,
    site_url: data.site_url,
    ...(language === ENGLISH_NAME ? {} : { language }),
    ...(data.stop_words ? { stop_words: data.stop_words } : {}),
    docs: docs.count,
    average,
    terms: firsts,
    term_tags: termTags,
    doc_tags: docTags,
    vocabulary,
  } satisfies Omit<SearchHead, 'tag'>);
  return [{ path: SEARCH_HEAD_PATH, ...head }, ...files];
}
