// The Orama database the build fills and saves (D12). Orama's default
// components are kept where they fit; three parts are folio's own, through
// Orama's component API:
//
// - the tokenizer is the site language's (./language.ts): for English,
//   Orama's own with hyphens and possessives split (./tokenizer.ts);
// - the index counts how often a token occurs in a field (Orama's default
//   keeps one per document, so a post about a subject and a post that names
//   it once score alike), saves radix trees without the full word in every
//   node (./tree.ts), and searches exact tokens only (./score.ts; typos are
//   corrected before the search, see ./typo.ts, because stems of misspelt
//   words drift apart: "deliverability" → "deliver", "deliverabilty" →
//   "deliverabilti");
// - the documents store keeps each document as a short tuple, all of them
//   saved as one string that JSON.parse can be spared (./docs.ts).
//
// The functions read the saved data with the same modules (./engine.ts)
// without Orama's create() and load(): its index, sorter and trees are
// build-time code, and a function that searches loads only the tokenizer.
import { components, create, type AnyOrama, type Tokenizer } from '@orama/orama';
import { encodeCounts } from './codec.js';
import { DocLines, encodeDocs } from './docs.js';
import { SEARCH_FIELDS, type CompactField, type SearchField, type StoredDoc } from './format.js';
import { loadIndex, scoreTokens, type FolioIndex, type Relevance } from './score.js';
import type { SearchLanguage } from './language.js';
import { encodeWords, treeWords } from './tree.js';

type RadixTree = { insert(word: string, id: number): void };

const baseIndex = components.index.createIndex();

const folioIndex = {
  ...baseIndex,
  /**
   * Orama's insert normalizes every word occurrence without its cache and
   * inserts each occurrence into the tree; with counted duplicates that is
   * most of the build's indexing time. Normalize through the cache and
   * insert each distinct token once.
   */
  insert(
    implementation: {
      insertDocumentScoreParameters(index: FolioIndex, prop: string, id: number, tokens: string[], docsCount: number): void;
    },
    index: FolioIndex,
    prop: string,
    _id: string,
    internalId: number,
    value: unknown,
    _schemaType: string,
    language: string | undefined,
    tokenizer: Tokenizer,
    docsCount: number,
  ) {
    const tokens = tokenizer.tokenize(String(value ?? ''), language, prop, true);
    implementation.insertDocumentScoreParameters(index, prop, internalId, tokens, docsCount);
    const tree = index.indexes[prop]!.node as unknown as RadixTree;
    for (const token of new Set(tokens)) tree.insert(token, internalId);
  },
  insertDocumentScoreParameters(index: FolioIndex, prop: string, internalId: number, tokens: string[], docsCount: number) {
    index.avgFieldLength[prop] = ((index.avgFieldLength[prop] ?? 0) * (docsCount - 1) + tokens.length) / docsCount;
    index.fieldLengths[prop]![internalId] = tokens.length;
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    // Orama's tokenOccurrences (documents per token) is not kept: it is the size of the token's postings.
    const frequencies = index.frequencies[prop]!;
    for (const [token, count] of counts) {
      if (count > 1) {
        if (!Object.hasOwn(frequencies, token)) Object.defineProperty(frequencies, token, { value: {}, enumerable: true, writable: true });
        (frequencies[token] as Record<number, number>)[internalId] = count;
      }
    }
  },
  /** Counted per document above, not once per token occurrence. */
  insertTokenScoreParameters() {},
  save(index: FolioIndex): Record<string, CompactField> {
    const saved: Record<string, CompactField> = {};
    for (const prop of Object.keys(index.indexes)) {
      const lengths: number[] = [0];
      for (const [id, length] of Object.entries(index.fieldLengths[prop]!)) lengths[Number(id)] = length;
      saved[prop] = {
        tree: encodeWords(treeWords(index.indexes[prop]!.node)),
        lengths: Array.from(lengths, (n) => n ?? 0),
        average: index.avgFieldLength[prop]!,
        // By token, as the tree: the bytes follow from the counts alone, not from the order documents came in.
        counts: Object.fromEntries(
          Object.entries(index.frequencies[prop]!)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([token, counts]) => [token, typeof counts === 'string' ? counts : encodeCounts(counts)]),
        ),
      };
    }
    return saved;
  },
  load: (sharedInternalDocumentStore: unknown, raw: Record<string, CompactField>): FolioIndex =>
    loadIndex(raw, sharedInternalDocumentStore),
  /** Orama's search entry point, for Orama's own search(): every match as [internal id, score]. */
  search(
    index: FolioIndex,
    term: string,
    tokenizer: Tokenizer,
    language: string | undefined,
    properties: string[],
    _exact: boolean,
    _tolerance: number,
    boost: Partial<Record<string, number>>,
    relevance: Relevance,
    docsCount: number,
  ): [number, number][] {
    const tokens = [...new Set(tokenizer.tokenize(term, language))];
    const { scores, matched } = scoreTokens(index, tokens, properties, boost, relevance, docsCount);
    return matched.map((id) => [id, scores[id]!]);
  },
};

// ---------------------------------------------------------------- documents

interface FolioDocs {
  sharedInternalDocumentStore: unknown;
  /** By internal id; index 0 unused. Filled by the build; a loaded store reads `lines`. */
  docs: (StoredDoc | undefined)[];
  count: number;
  lines?: DocLines;
}

/** What the build inserts: the searchable fields, and the stored tuple. */
export interface SearchDocument {
  id: string;
  title: string;
  summary: string;
  tags: string;
  body: string;
  stored: StoredDoc;
}

const baseDocs = components.documentsStore.createDocumentsStore();

function storedDoc(store: FolioDocs, internalId: number): StoredDoc | undefined {
  return store.lines ? store.lines.get(internalId) : store.docs[internalId];
}

const folioDocs = {
  ...baseDocs,
  create: (_: unknown, sharedInternalDocumentStore: unknown): FolioDocs => ({ sharedInternalDocumentStore, docs: [], count: 0 }),
  store(store: FolioDocs, _id: string, internalId: number, doc: SearchDocument) {
    if (store.docs[internalId] !== undefined) return false;
    store.docs[internalId] = doc.stored;
    store.count++;
    return true;
  },
  get: (store: FolioDocs, internalId: number) => storedDoc(store, internalId),
  getMultiple: (store: FolioDocs, internalIds: number[]) => internalIds.map((id) => storedDoc(store, id)),
  getAll: (store: FolioDocs) => Array.from({ length: store.count + 1 }, (_, id) => (id === 0 ? undefined : storedDoc(store, id))),
  save: (store: FolioDocs): string => encodeDocs(store.docs.slice(1) as StoredDoc[]),
  load: (sharedInternalDocumentStore: unknown, raw: string): FolioDocs => {
    const lines = new DocLines(raw);
    return { sharedInternalDocumentStore, docs: [], count: lines.count, lines };
  },
};

/** An empty database with folio's components and the language's tokenizer, for the build to fill. */
export function createSearchDb(language: SearchLanguage): AnyOrama {
  return create({
    schema: Object.fromEntries(SEARCH_FIELDS.map((f) => [f, 'string'])) as Record<SearchField, 'string'>,
    sort: { enabled: false },
    components: {
      tokenizer: language.tokenizer(),
      index: folioIndex as never,
      documentsStore: folioDocs as never,
    },
  }) as AnyOrama;
}
