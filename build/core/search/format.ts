// The persisted search index (dist/_folio/search-index.json): what the build
// writes and the functions read. One versioned JSON document; `data` is
// Orama's own save() output, with the index and documents in folio's compact
// shapes (see ./orama.ts), so a change to either side bumps VERSION.
import type { SearchType } from '../runtime.js';

export const SEARCH_INDEX_FORMAT = 'folio-search-index';
/** Bump whenever the shape of `data` or the tokenizer changes: an old index is then refused, not misread. */
export const SEARCH_INDEX_VERSION = 5;

/** The searchable fields, each with its weight: a title match outranks a tag match, which outranks a body match (D12). */
export const FIELD_BOOST = { title: 4, tags: 2, summary: 1.5, body: 1 } as const;
export type SearchField = keyof typeof FIELD_BOOST;
export const SEARCH_FIELDS = Object.keys(FIELD_BOOST) as SearchField[];

/** Orama's BM25 defaults (k1, b) and its BM25+ lower bound d, kept explicit so scores cannot drift with an upgrade. */
export const RELEVANCE = { k: 1.2, b: 0.75, d: 0.5 } as const;

/**
 * One stored document: what a hit shows, and the body its snippet is cut
 * from. URLs are kept relative to `site_url` to keep the file small.
 */
export type StoredDoc = [type: SearchType, id: string, title: string, summary: string, url: string, api_url: string, body: string];

/**
 * A radix tree node: its segment, its postings (./codec.ts; "" when no word
 * ends here), its children. Orama's own JSON repeats the whole word, the
 * first letter and an array of ids in every node.
 */
export type CompactNode = [segment: string, postings: string, children: CompactNode[]];

export interface CompactField {
  tree: CompactNode;
  /** Token count of the field in each document, by internal id (index 0 unused). */
  lengths: number[];
  average: number;
  /** token → occurrences above one per internal id (./codec.ts); one is implied by the postings. */
  counts: Record<string, string>;
}

export interface SearchIndexData {
  site_url: string;
  /** Orama's RawData (save()), with folio's components' shapes for `index` and `docs`. */
  orama: {
    internalDocumentIDStore: { internalIdToId: string[] };
    index: Record<SearchField, CompactField>;
    /** Every StoredDoc in internal id order, as one string that needs no JSON escape (./docs.ts encodeDocs). */
    docs: string;
    sorting: unknown;
    pinning: unknown;
    language: string;
  };
  /** Lowercased words of four letters or more, by length (folded), space-separated: what a one-typo query word is corrected against. */
  vocabulary: Record<string, string>;
  /** The stop words of a language other than English (./language.ts), which queries drop as the index did. */
  stop_words?: string[];
}

export interface SearchIndexFile {
  format: typeof SEARCH_INDEX_FORMAT;
  version: number;
  /** "sha256:<hex>" of the JSON text of `data`, exactly as written. */
  hash: string;
  documents: number;
  data: SearchIndexData;
}
