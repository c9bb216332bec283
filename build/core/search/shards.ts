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
  termShardPath,
  vocabularyPath,
  type TaggedFile,
  type Tagger,
} from '../edge.js';
import { decodeIds } from './codec.js';
import { DocLines } from './docs.js';
import { SEARCH_FIELDS, type CompactNode, type SearchField, type SearchIndexData, type StoredDoc } from './format.js';

/** About this many bytes of postings per term shard. */
export const TERM_SHARD_BYTES = 16 * 1024;

/** One term in one field: postings (./codec.ts encodeIds), occurrences above one (encodeCounts, or ""), field lengths per posting (base 36, comma-separated). */
export type TermField = [ids: string, counts: string, lengths: string];
export type TermEntry = Partial<Record<SearchField, TermField>>;

export interface SearchHead {
  tag: string;
  format: typeof EDGE_FORMAT;
  version: number;
  site_url: string;
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
  /** Letters with vocabulary words starting (`f`) or ending (`l`) with them, each with the tag of its file. */
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

function walk(node: CompactNode, prefix: string, visit: (word: string, postings: string) => void): void {
  const word = prefix + node[0];
  if (node[1] !== '') visit(word, node[1]);
  for (const child of node[2]) walk(child, word, visit);
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
 * gives a tag is not made: the previous build's is the same.
 */
export function searchShards(
  data: SearchIndexData,
  tagged: Tagger,
  keptDocs: (n: number) => string | null = () => null,
): (({ path: string } & TaggedFile) | KeptShard)[] {
  const index = data.orama.index;
  const entries = new Map<string, TermEntry>();
  for (const field of SEARCH_FIELDS) {
    const { tree, lengths, counts } = index[field];
    walk(tree, '', (token, postings) => {
      const ids = decodeIds(postings);
      if (ids.length === 0) return;
      const entry = entries.get(token) ?? entries.set(token, {}).get(token)!;
      const own = Object.hasOwn(counts, token) ? counts[token]! : '';
      entry[field] = [postings, own, Array.from(ids, (id) => (lengths[id] ?? 0).toString(36)).join(',')];
    });
  }
  const files: (({ path: string } & TaggedFile) | KeptShard)[] = [];
  const firsts: string[] = [];
  let termTags = '';
  let shard: Record<string, TermEntry> = {};
  let size = 0;
  const flush = () => {
    const file = tagged({ terms: shard } satisfies Omit<TermShard, 'tag'>);
    termTags += file.tag;
    files.push({ path: termShardPath(firsts.length - 1), ...file });
    shard = {};
    size = 0;
  };
  for (const token of [...entries.keys()].sort()) {
    const entry = entries.get(token)!;
    if (size === 0) firsts.push(token);
    shard[token] = entry;
    size += token.length + Object.values(entry).reduce((n, f) => n + f[0].length + f[1].length + f[2].length + 20, 0);
    if (size >= TERM_SHARD_BYTES) flush();
  }
  if (size > 0) flush();

  const docs = new DocLines(data.orama.docs);
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

  const byLetter = { f: new Map<string, Map<string, string[]>>(), l: new Map<string, Map<string, string[]>>() };
  for (const [length, list] of Object.entries(data.vocabulary)) {
    for (const word of list.split(' ').filter(Boolean)) {
      for (const [end, letter] of [
        ['f', word[0]!],
        ['l', word[word.length - 1]!],
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

  const average = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, index[f].average])) as Record<SearchField, number>;
  const head = tagged({
    format: EDGE_FORMAT,
    version: EDGE_VERSION,
    site_url: data.site_url,
    docs: docs.count,
    average,
    terms: firsts,
    term_tags: termTags,
    doc_tags: docTags,
    vocabulary,
  } satisfies Omit<SearchHead, 'tag'>);
  return [{ path: SEARCH_HEAD_PATH, ...head }, ...files];
}
