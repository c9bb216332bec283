// The run-time search engine over the sharded index (./shards.ts, D12, D55):
// a query reads the shards of its words (and, for a word the index does not
// know, the vocabulary of its first and last letter, folded), then the documents of
// its best hits. It scores exactly as the whole-index engine (./engine.ts)
// does, in the same order of additions, so hits, order, scores and snippets
// are the same; test/edge-search.test.ts holds it to that.
import { twinPath } from '../urls.js';
import { DeploymentError } from '../errors.js';
import {
  docsPath,
  EDGE_FORMAT,
  EDGE_VERSION,
  edgeFile,
  REBUILD,
  SEARCH_DOCS_PER_FILE,
  SEARCH_HEAD_PATH,
  tagAt,
  termShardPath,
  vocabularyPath,
} from '../edge.js';
import { KeptFiles, type ReadAsset } from '../kept-files.js';
import type { SearchEngine, SearchHit } from '../runtime.js';
import { decodeCounts, decodeIds } from './codec.js';
import { top } from './top.js';
import { FIELD_BOOST, RELEVANCE, SEARCH_FIELDS, type SearchField } from './format.js';
import type { DocsFile, SearchHead, TermEntry, TermField, TermShard, VocabularyFile } from './shards.js';
import { snippet } from './snippet.js';
import { searchLanguage, type SearchLanguage } from './language.js';
import { ENGLISH_NAME } from './tokenizer.js';
import { MIN_TYPO_LENGTH, nearWords } from './typo.js';

/**
 * The bytes of shards one engine keeps between queries, the least recently
 * used dropped first: an isolate that searches again reads fewer. About the
 * whole index of a 20,000-post site, some 50 MB of heap once parsed; a
 * budget smaller than a query mix's files reads nearly every file again.
 */
const KEEP_BYTES = 32 * 1024 * 1024;

/**
 * Opens the search head, which must carry `tag` (the edge head's for it);
 * throws DeploymentError when it is missing or of another build. `keepBytes`
 * bounds the shards kept between queries.
 */
export async function openShardedSearch(read: ReadAsset, tag: string, keepBytes = KEEP_BYTES): Promise<SearchEngine> {
  const head = edgeFile<SearchHead>(SEARCH_HEAD_PATH, await read(SEARCH_HEAD_PATH), tag);
  if (head.format !== EDGE_FORMAT || head.version !== EDGE_VERSION)
    throw new DeploymentError(`${SEARCH_HEAD_PATH} is format version ${head.version}; this folio reads ${EDGE_VERSION}.`, REBUILD);
  return new ShardedEngine(head, read, keepBytes, searchLanguage(head.language ?? ENGLISH_NAME, head.stop_words));
}

/** One count per posting, base 36, comma-separated. */
function decodeNumbers(text: string, count: number): Float64Array {
  const out = new Float64Array(count);
  let n = 0;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      out[n++] = value;
      value = 0;
    } else value = value * 36 + (c <= 57 ? c - 48 : c - 87);
  }
  if (text !== '') out[n] = value;
  return out;
}

class ShardedEngine implements SearchEngine {
  constructor(
    private readonly head: SearchHead,
    private readonly read: ReadAsset,
    keepBytes: number,
    private readonly language: SearchLanguage,
  ) {
    this.token = language.tokens();
    this.files = new KeptFiles(keepBytes);
  }

  private readonly files: KeptFiles;

  /** A file with the tag the head names for it, kept while it is among the last `keepBytes` read. */
  private file<T extends { tag: string }>(path: string, tag: string): Promise<T> {
    return this.files.get<T>(this.read, path, tag);
  }

  /** Reused between queries, as ./engine.ts does: a query zeroes what it added before it awaits anything. */
  private scores: Float64Array | undefined;

  private accumulator(): Float64Array {
    if (!this.scores || this.scores.length <= this.head.docs) this.scores = new Float64Array(this.head.docs + 1);
    return this.scores;
  }

  /**
   * A term's postings in one field, decoded, and each posting's BM25+ score:
   * idf·(d + tf·(k+1)) / (tf + norm), fixed for a deployment, so kept with the
   * shard that holds the term (an isolate that meets the word again only adds them up).
   */
  private readonly decoded = new WeakMap<TermField, { ids: ArrayLike<number>; values: Float32Array }>();

  private contributions(postings: TermField, field: SearchField): { ids: ArrayLike<number>; values: Float32Array } {
    let made = this.decoded.get(postings);
    if (made) return made;
    const { k, b, d } = RELEVANCE;
    const average = this.head.average[field];
    const ids = decodeIds(postings[0]);
    const idf = Math.log(1 + (this.head.docs - ids.length + 0.5) / (ids.length + 0.5)) * (FIELD_BOOST[field] ?? 1);
    const tfs = postings[1] === '' ? undefined : decodeCounts(postings[1], ids);
    const lengths = decodeNumbers(postings[2], ids.length);
    const values = new Float32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const tf = tfs === undefined ? 1 : tfs[i]!;
      const norm = k * (1 - b + (b * lengths[i]!) / (average || 1));
      values[i] = (idf * (d + tf * (k + 1))) / (tf + norm);
    }
    made = { ids, values };
    this.decoded.set(postings, made);
    return made;
  }

  /** A word's index token ("" for a stop word), as the index made it. */
  private readonly token: (word: string) => string;

  /** The term's postings in every field, or undefined when no document has it. */
  private async entry(token: string): Promise<TermEntry | undefined> {
    const { terms } = this.head;
    let lo = 0;
    let hi = terms.length - 1;
    if (hi < 0 || token < terms[0]!) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (terms[mid]! <= token) lo = mid;
      else hi = mid - 1;
    }
    const shard = await this.file<TermShard>(termShardPath(lo), tagAt(this.head.term_tags, lo));
    return Object.hasOwn(shard.terms, token) ? shard.terms[token] : undefined;
  }

  /**
   * Words one edit away from `word` (with `exact`, the same once folded), at
   * most `max`, in the order of the whole vocabulary (typo.ts nearWords;
   * each length's words sorted). A word one edit away shares its first or
   * its last letter; one the same once folded, both.
   */
  private async corrections(word: string, max = 8, exact = false): Promise<string[]> {
    const { fold } = this.language;
    const key = fold(word);
    if (key.length < MIN_TYPO_LENGTH) return [];
    const { vocabulary } = this.head;
    const ends: (readonly ['f' | 'l', string])[] = exact
      ? [['f', key[0]!]]
      : [
          ['f', key[0]!],
          ['l', key[key.length - 1]!],
        ];
    const parts = await Promise.all(
      ends.map(([end, letter]) =>
        Object.hasOwn(vocabulary[end], letter) ? this.file<VocabularyFile>(vocabularyPath(end, letter), vocabulary[end][letter]!) : null,
      ),
    );
    const candidates = (length: number) => {
      const words = new Set<string>();
      for (const part of parts) if (part && Object.hasOwn(part.words, length)) for (const w of part.words[length]!.split(' ')) words.add(w);
      return [...words].sort();
    };
    return nearWords(word, fold, candidates, max, exact);
  }

  async search(query: string, limit: number): Promise<{ total: number; hits: SearchHit[] }> {
    const entries = new Map<string, TermEntry>();
    const words: string[] = [];
    for (const word of this.language.words(query)) {
      if (!word) continue;
      const token = this.token(word);
      if (!token) continue;
      const entry = await this.entry(token);
      if (entry) {
        entries.set(token, entry);
        words.push(word);
        if (this.language.folds) words.push(...(await this.corrections(word, undefined, true)));
      } else words.push(...(await this.corrections(word)));
    }
    const tokens = new Set(words.map(this.token).filter(Boolean));
    if (tokens.size === 0) return { total: 0, hits: [] };
    for (const token of tokens) {
      if (!entries.has(token)) {
        const entry = await this.entry(token);
        if (entry) entries.set(token, entry);
      }
    }
    // BM25+ per field times the field's boost, added up field by field and
    // token by token as ./score.ts does, each contribution in single precision as there.
    const scores = this.accumulator();
    const matched: number[] = [];
    for (const field of SEARCH_FIELDS) {
      for (const token of tokens) {
        const postings = entries.get(token)?.[field];
        if (!postings) continue;
        const { ids, values } = this.contributions(postings, field);
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i]!;
          if (scores[id] === 0) matched.push(id);
          scores[id]! += values[i]!;
        }
      }
    }
    const best = top(matched, (id) => scores[id]!, limit);
    // Zeroed before the next await, so a query that starts meanwhile finds it clean.
    for (const id of matched) scores[id] = 0;
    const stored = await Promise.all(
      best.map(([id]) => {
        const n = Math.floor((id - 1) / SEARCH_DOCS_PER_FILE);
        return this.file<DocsFile>(docsPath(n), tagAt(this.head.doc_tags, n));
      }),
    );
    const hits = best.map(([id, score], i): SearchHit => {
      const file = stored[i]!;
      const doc = file.docs[id - file.first];
      if (!doc)
        throw new DeploymentError(`${docsPath(Math.floor((id - 1) / SEARCH_DOCS_PER_FILE))} does not hold search document ${id}.`, REBUILD);
      const [type, key, title, summary, url, apiUrl, body] = doc;
      return {
        type,
        id: key,
        title,
        summary,
        url: this.head.site_url + url,
        markdown_url: this.head.site_url + twinPath(url),
        api_url: this.head.site_url + apiUrl,
        snippet: snippet([body, summary], tokens, this.token, this.language),
        score: Math.round(score * 1000) / 1000,
      };
    });
    return { total: matched.length, hits };
  }
}
