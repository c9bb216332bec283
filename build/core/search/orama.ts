// The Orama database both sides use: the build inserts into it and saves it,
// the functions load it and search it. Orama's default components are kept
// where they fit; three parts are folio's own, through Orama's component API:
//
// - the tokenizer splits hyphens and possessives (so `build-pipelines` and
//   "build pipelines" meet) and stems English words;
// - the index counts how often a token occurs in a field (Orama's default
//   keeps one per document, so a post about a subject and a post that names
//   it once score alike), saves radix trees without the full word in every
//   node, and searches exact tokens only (typos are corrected before the
//   search, see ./typo.ts, because stems of misspelt words drift apart:
//   "deliverability" → "deliver", "deliverabilty" → "deliverabilti");
// - the documents store keeps each document as a short tuple.
//
// Orama's find() collects postings with an Array.includes per document
// (quadratic in a common word's postings) and walks the subtree below an
// exact match, so the search walks the tree itself.
import { components, create, type AnyOrama, type Tokenizer } from '@orama/orama';
import { radix } from '@orama/orama/trees';
import { stemmer } from '@orama/stemmers/english';
import { decodeCounts, decodeIds, encodeCounts, encodeIds } from './codec.js';
import { SEARCH_FIELDS, type CompactField, type CompactNode, type SearchField, type StoredDoc } from './format.js';

type RadixNode = InstanceType<typeof radix.RadixNode>;
const { RadixNode: Node, RadixTree } = radix;

/** Words too common to tell documents apart; dropped from the index and from queries. */
export const STOP_WORDS = [
  'a', 'about', 'after', 'all', 'also', 'an', 'and', 'any', 'are', 'as', 'at', 'be', 'been', 'before', 'being', 'both', 'but', 'by',
  'can', 'could', 'did', 'do', 'does', 'doing', 'each', 'for', 'from', 'had', 'has', 'have', 'having', 'he', 'her', 'here', 'him',
  'his', 'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'itself', 'just', 'me', 'more', 'most', 'my', 'no', 'nor', 'not', 'of',
  'on', 'once', 'only', 'or', 'other', 'our', 'ours', 'out', 'over', 's', 'same', 'she', 'should', 'so', 'some', 'such', 't', 'than',
  'that', 'the', 'their', 'them', 'then', 'there', 'these', 'they', 'this', 'those', 'through', 'to', 'too', 'under', 'until', 'up',
  'very', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who', 'whom', 'why', 'will', 'with', 'would', 'you', 'your',
];

/** Orama's English word splitter, plus hyphens, underscores and apostrophes. */
export const WORD_SPLIT = /[^a-z0-9àèéìòóù]+/;

/** "Gmail's ssh-agent" → "gmail ssh agent": what Orama's tokenizer is given, at build and at query time. */
export function splitWords(text: string): string {
  return text.toLowerCase().replace(/['’]s\b/g, '').replace(/[-_'’]+/g, ' ');
}

function createFolioTokenizer(): Tokenizer {
  const base = components.tokenizer.createTokenizer({ language: 'english', stemming: true, stemmer, stopWords: STOP_WORDS, allowDuplicates: true });
  const tokenize = base.tokenize.bind(base);
  base.tokenize = (raw, language, prop, withCache) => tokenize(typeof raw === 'string' ? splitWords(raw) : raw, language, prop, withCache);
  return base;
}

/** The exact radix node of a token, or undefined. */
export function exactNode(tree: RadixNode, token: string): RadixNode | undefined {
  let node = tree;
  let i = 0;
  while (i < token.length) {
    const child = node.c.get(token[i]!);
    if (!child || !token.startsWith(child.s, i)) return undefined;
    node = child;
    i += child.s.length;
  }
  return node.e && postings(node).length > 0 ? node : undefined;
}

/**
 * An Orama radix node that decodes itself as far as it is read: its postings
 * stay delta-coded until first read, and its children stay the index file's
 * arrays until first walked, so loading an index builds only the top of each
 * tree and a query builds the path to its words. It has RadixNode's
 * prototype (find, insert… work unchanged); `d`, the Set Orama reads, and
 * `c`, the children Map, are built on first access.
 */
class LazyNode {
  k: string;
  s: string;
  e: boolean;
  w: string;
  private encoded: string | null;
  private set: Set<number> | null = null;
  private list: Int32Array | null = null;
  private children: Map<string, RadixNode> | null = null;
  private rawChildren: CompactNode[] | null;
  /** Each posting's score for this word, aligned with `ids`, and the parameters it was computed with. Filled by scoreTokens. */
  contributions: { key: string; values: Float32Array } | undefined;

  constructor([segment, postings, children]: CompactNode, parent: string) {
    this.k = segment[0] ?? '';
    this.s = segment;
    this.e = postings !== '';
    this.w = parent + segment;
    this.encoded = postings;
    this.rawChildren = children;
  }

  get c(): Map<string, RadixNode> {
    if (this.children) return this.children;
    this.children = decodeChildren(this.rawChildren ?? [], this.w);
    this.rawChildren = null;
    return this.children;
  }

  set c(value: Map<string, RadixNode>) {
    this.children = value;
    this.rawChildren = null;
  }

  /** Internal ids, ascending. */
  get ids(): Int32Array {
    if (this.list) return this.list;
    if (this.set) return (this.list = Int32Array.from(this.set).sort());
    this.list = decodeIds(this.encoded ?? '');
    this.encoded = null;
    return this.list;
  }

  get d(): Set<number> {
    return (this.set ??= new Set(this.ids));
  }

  set d(value: Set<number>) {
    this.set = value;
    this.list = null;
    this.encoded = null;
    this.contributions = undefined;
  }
}
Object.setPrototypeOf(LazyNode.prototype, Node.prototype);

/** A node's children from the index file, keyed by first letter; each decodes its own children when walked. */
function decodeChildren(children: readonly CompactNode[], parent: string): Map<string, RadixNode> {
  const map = new Map<string, RadixNode>();
  for (const child of children) map.set(child[0][0]!, new LazyNode(child, parent) as unknown as RadixNode);
  return map;
}

/** The postings of a node, whichever kind it is. */
function postings(node: RadixNode): ArrayLike<number> {
  return node instanceof LazyNode ? node.ids : [...node.d];
}

/**
 * Each posting's BM25+ score for the node's word: idf·(d + tf·(k+1)) / (tf + norm).
 * Every factor is fixed for a loaded index, so a loaded node keeps the array
 * and a query only adds it up.
 */
function contributions(node: RadixNode, ids: ArrayLike<number>, counts: Counts | undefined, idf: number, norm: Float64Array, { k, d }: Relevance, key: string): Float32Array {
  if (node instanceof LazyNode && node.contributions?.key === key) return node.contributions.values;
  // A loaded index keeps the counts encoded (./codec.ts); the build's index, as objects.
  const tfs = counts === undefined ? undefined : typeof counts === 'string' ? decodeCounts(counts, ids) : Float64Array.from(ids, (id) => (counts as Record<number, number>)[id] ?? 1);
  // Single precision: half the memory a long-lived isolate spends on cached words, and scores are shown to three decimals.
  const values = new Float32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const tf = tfs === undefined ? 1 : tfs[i]!;
    values[i] = (idf * (d + tf * (k + 1))) / (tf + norm[ids[i]!]!);
  }
  if (node instanceof LazyNode) node.contributions = { key, values };
  return values;
}

/** Per document, the length part of BM25+'s denominator: k·(1 − b + b·length/average). Cached per field. */
const norms = new WeakMap<object, Float64Array>();
function lengthNorms(lengths: Record<number, number>, average: number, k: number, b: number, docsCount: number): Float64Array {
  let out = norms.get(lengths);
  if (!out || out.length <= docsCount) {
    out = new Float64Array(docsCount + 1);
    for (let id = 1; id <= docsCount; id++) out[id] = k * (1 - b + (b * (lengths[id] ?? 0)) / (average || 1));
    norms.set(lengths, out);
  }
  return out;
}

// ---------------------------------------------------------------- the index

/** Occurrences of a token above one, per internal id: an object while building, encoded once loaded. */
type Counts = Record<number, number> | string;

/* The shapes below are Orama's `Index` store with folio's `frequencies`:
   field → token → occurrences per internal id (only above one). */
export interface FolioIndex {
  sharedInternalDocumentStore: unknown;
  indexes: Record<string, { type: 'Radix'; node: RadixNode; isArray: boolean }>;
  vectorIndexes: Record<string, never>;
  searchableProperties: string[];
  searchablePropertiesWithTypes: Record<string, string>;
  frequencies: Record<string, Record<string, Counts>>;
  tokenOccurrences: Record<string, Record<string, number>>;
  avgFieldLength: Record<string, number>;
  fieldLengths: Record<string, Record<number, number>>;
}

type Relevance = { k: number; b: number; d: number };

function encodeNode(node: RadixNode): CompactNode {
  const ids = node.e ? [...node.d].sort((a, b) => a - b) : [];
  return [node.s, encodeIds(ids), [...node.c.values()].map(encodeNode)];
}

/** A loaded field's tree: the root, and below it nodes that decode as they are walked. */
function decodeTree([segment, , children]: CompactNode): RadixNode {
  const root = new RadixTree();
  root.w = segment;
  root.c = decodeChildren(children, segment);
  return root;
}

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
    implementation: { insertDocumentScoreParameters(index: FolioIndex, prop: string, id: number, tokens: string[], docsCount: number): void },
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
    const tree = index.indexes[prop]!.node;
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
        tree: encodeNode(index.indexes[prop]!.node),
        lengths: Array.from(lengths, (n) => n ?? 0),
        average: index.avgFieldLength[prop]!,
        counts: Object.fromEntries(Object.entries(index.frequencies[prop]!).map(([token, counts]) => [token, typeof counts === 'string' ? counts : encodeCounts(counts)])),
      };
    }
    return saved;
  },
  load(sharedInternalDocumentStore: unknown, raw: Record<string, CompactField>): FolioIndex {
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
  },
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
    const norm = lengthNorms(index.fieldLengths[prop]!, index.avgFieldLength[prop]!, k, b, docsCount);
    const frequencies = index.frequencies[prop]!;
    for (const token of tokens) {
      const node = exactNode(field.node, token);
      if (!node) continue;
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

// ---------------------------------------------------------------- documents

interface FolioDocs {
  sharedInternalDocumentStore: unknown;
  /** By internal id; index 0 unused. A loaded store fills it from `lines` as hits need documents. */
  docs: (StoredDoc | undefined)[];
  count: number;
  /** A loaded index's documents, still encoded (see encodeDocs). */
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

/** Characters JSON would keep as they are but that make the whole index text two bytes a character once decoded. */
const NON_ASCII = /[\u007f-\uffff]/g;

/**
 * The stored documents as one string: a JSON array per line, in internal id
 * order, with every character beyond ASCII written as a \u escape. Opening
 * the index then parses one string instead of seven per document (three
 * quarters of the file is their text, and allocating it was most of the
 * open), keeps the file ASCII so it decodes at a byte a character, and a
 * document is parsed only when it is a hit.
 */
export function encodeDocs(docs: readonly StoredDoc[]): string {
  return docs.map((doc) => JSON.stringify(doc).replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('\n');
}

/** encodeDocs' text, each line parsed on first use. */
class DocLines {
  private readonly starts: Int32Array;

  constructor(private readonly text: string) {
    this.starts = text === '' ? new Int32Array(1) : lineStarts(text);
  }

  get count(): number {
    return this.starts.length - 1;
  }

  /** The document of line `i` (0-based). */
  line(i: number): StoredDoc | undefined {
    const { starts } = this;
    if (!(i >= 0 && i < starts.length - 1)) return undefined;
    return JSON.parse(this.text.slice(starts[i]!, starts[i + 1]! - 1)) as StoredDoc;
  }
}

/** Where each line of `text` begins, and one past its end: JSON escapes every newline inside a string, so each one ends a document. */
function lineStarts(text: string): Int32Array {
  const starts: number[] = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  starts.push(text.length + 1);
  return Int32Array.from(starts);
}

const baseDocs = components.documentsStore.createDocumentsStore();

/** The stored document of an internal id, decoded on first use. */
export function storedDoc(store: FolioDocs, internalId: number): StoredDoc | undefined {
  let doc = store.docs[internalId];
  if (doc === undefined && store.lines) doc = store.docs[internalId] = store.lines.line(internalId - 1);
  return doc;
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
  getAll(store: FolioDocs) {
    for (let id = 1; id <= store.count; id++) storedDoc(store, id);
    return store.docs;
  },
  save: (store: FolioDocs): string => encodeDocs(store.docs.slice(1) as StoredDoc[]),
  load: (sharedInternalDocumentStore: unknown, raw: string): FolioDocs => {
    const lines = new DocLines(raw);
    return { sharedInternalDocumentStore, docs: [], count: lines.count, lines };
  },
};

/** An empty database with folio's components; the same call at build and at run time. */
export function createSearchDb(): AnyOrama {
  return create({
    schema: Object.fromEntries(SEARCH_FIELDS.map((f) => [f, 'string'])) as Record<SearchField, 'string'>,
    sort: { enabled: false },
    components: {
      tokenizer: createFolioTokenizer(),
      index: folioIndex as never,
      documentsStore: folioDocs as never,
    },
  }) as AnyOrama;
}
