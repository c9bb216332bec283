// Scoring (D12): exact tokens, BM25+ per field times the field's boost,
// summed over fields and tokens, read straight from the index's trees.
// Orama's find() collects postings with an Array.includes per document
// (quadratic in a common word's postings) and walks the subtree below an
// exact match, so folio walks the tree itself.
import { decodeCounts } from './codec.js';
import type { CompactField } from './format.js';
import { decodeTree, exactNode, LazyNode, postings, type TreeNode } from './tree.js';

/** Occurrences of a token above one, per internal id: an object while building, encoded once loaded. */
export type Counts = Record<number, number> | string;

/* The shapes below are Orama's `Index` store with folio's `frequencies`:
   field → token → occurrences per internal id (only above one). */
export interface FolioIndex {
  sharedInternalDocumentStore: unknown;
  indexes: Record<string, { type: 'Radix'; node: TreeNode; isArray: boolean }>;
  vectorIndexes: Record<string, never>;
  searchableProperties: string[];
  searchablePropertiesWithTypes: Record<string, string>;
  frequencies: Record<string, Record<string, Counts>>;
  tokenOccurrences: Record<string, Record<string, number>>;
  avgFieldLength: Record<string, number>;
  fieldLengths: Record<string, Record<number, number>>;
  /** Per field, the length part of BM25+'s denominator per document, made by the first query that needs it (lengthNorms). */
  norms?: Record<string, Float64Array>;
}

export type Relevance = { k: number; b: number; d: number };

/** The index of a saved database (its `index`), its trees decoded as queries walk them. */
export function loadIndex(raw: Record<string, CompactField>, sharedInternalDocumentStore: unknown = null): FolioIndex {
  const index: FolioIndex = {
    sharedInternalDocumentStore,
    indexes: {},
    vectorIndexes: {},
    searchableProperties: [],
    searchablePropertiesWithTypes: {},
    frequencies: {},
    tokenOccurrences: {},
    avgFieldLength: {},
    fieldLengths: {},
  };
  for (const [prop, field] of Object.entries(raw)) {
    index.indexes[prop] = { type: 'Radix', node: decodeTree(field.tree), isArray: false };
    index.searchableProperties.push(prop);
    index.searchablePropertiesWithTypes[prop] = 'string';
    index.frequencies[prop] = field.counts;
    index.tokenOccurrences[prop] = {};
    index.avgFieldLength[prop] = field.average;
    index.fieldLengths[prop] = field.lengths;
  }
  return index;
}

/**
 * Each posting's BM25+ score for the node's word: idf·(d + tf·(k+1)) / (tf + norm).
 * Every factor is fixed for a loaded index, so a loaded node keeps the array
 * and a query only adds it up.
 */
function contributions(
  node: TreeNode,
  ids: ArrayLike<number>,
  counts: Counts | undefined,
  idf: number,
  norm: Float64Array,
  { k, d }: Relevance,
  key: string,
): Float32Array {
  if (node instanceof LazyNode && node.contributions?.key === key) return node.contributions.values;
  // A loaded index keeps the counts encoded (./codec.ts); the build's index, as objects.
  const tfs =
    counts === undefined
      ? undefined
      : typeof counts === 'string'
        ? decodeCounts(counts, ids)
        : Float64Array.from(ids, (id) => (counts as Record<number, number>)[id] ?? 1);
  // Single precision: half the memory a long-lived isolate spends on cached words, and scores are shown to three decimals.
  const values = new Float32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const tf = tfs === undefined ? 1 : tfs[i]!;
    values[i] = (idf * (d + tf * (k + 1))) / (tf + norm[ids[i]!]!);
  }
  if (node instanceof LazyNode) node.contributions = { key, values };
  return values;
}

/**
 * Per document, the length part of BM25+'s denominator: k·(1 − b + b·length/average).
 * Kept in the index, which a loaded index never modifies, so an isolate makes each field's once.
 */
function lengthNorms(index: FolioIndex, prop: string, k: number, b: number, docsCount: number): Float64Array {
  const norms = (index.norms ??= {});
  let out = norms[prop];
  if (!out || out.length <= docsCount) {
    const lengths = index.fieldLengths[prop]!;
    const average = index.avgFieldLength[prop]!;
    out = new Float64Array(docsCount + 1);
    for (let id = 1; id <= docsCount; id++) out[id] = k * (1 - b + (b * (lengths[id] ?? 0)) / (average || 1));
    norms[prop] = out;
  }
  return out;
}

/**
 * Exact tokens, BM25+ per field times the field's boost, summed over fields
 * and tokens. `scores` is indexed by internal id; `matched` lists the ids
 * that scored, in the order first met. Pass `into` to reuse an accumulator.
 */
export function scoreTokens(
  index: FolioIndex,
  tokens: readonly string[],
  properties: readonly string[],
  boost: Partial<Record<string, number>>,
  relevance: Relevance,
  docsCount: number,
  into?: Float64Array,
): { scores: Float64Array; matched: number[] } {
  const { k, b, d } = relevance;
  const scores = into && into.length > docsCount ? into : new Float64Array(docsCount + 1);
  const matched: number[] = [];
  for (const prop of properties) {
    const field = index.indexes[prop];
    if (!field) continue;
    const weight = boost[prop] ?? 1;
    // Only for a field that holds a query token: the first query of an isolate builds the ones it needs.
    let norm: Float64Array | undefined;
    const frequencies = index.frequencies[prop]!;
    for (const token of tokens) {
      const node = exactNode(field.node, token);
      if (!node) continue;
      norm ??= lengthNorms(index, prop, k, b, docsCount);
      const ids = postings(node);
      const idf = Math.log(1 + (docsCount - ids.length + 0.5) / (ids.length + 0.5)) * weight;
      const counts = Object.hasOwn(frequencies, token) ? frequencies[token] : undefined;
      const values = contributions(node, ids, counts, idf, norm, relevance, `${weight} ${docsCount} ${k} ${b} ${d}`);
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        if (scores[id] === 0) matched.push(id);
        scores[id]! += values[i]!;
      }
    }
  }
  return { scores, matched };
}
