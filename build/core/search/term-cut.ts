// The term shards of the split index (./shards.ts): every term of the index
// in order, cut greedily by size. After an edit (D56), they are cut again
// from the previous build's: only the terms an edit touched can have other
// entries, so a shard none of them falls in, starting where the previous one
// did, is that shard again.
import { TAG_LENGTH, tagAt, termShardPath, type TaggedFile, type Tagger } from '../edge.js';
import { decodeIds } from './codec.js';
import { SEARCH_FIELDS, type CompactNode, type SearchField, type SearchIndexData } from './format.js';
import type { KeptShard, TermEntry, TermField, TermShard } from './shards.js';
import { findWord } from './tree.js';

/** About this many bytes of postings per term shard. */
const TERM_SHARD_BYTES = 16 * 1024;

function walk(node: CompactNode, prefix: string, visit: (word: string, postings: string) => void): void {
  const word = prefix + node[0];
  if (node[1] !== '') visit(word, node[1]);
  for (const child of node[2]) walk(child, word, visit);
}

type Fields = SearchIndexData['orama']['index'];

/** What a term shard holds of one term in one field: its postings, its counts, and the field's length in each posted document. */
function termField({ lengths, counts }: Fields[SearchField], token: string, postings: string): TermField | null {
  const ids = decodeIds(postings);
  if (ids.length === 0) return null;
  const own = Object.hasOwn(counts, token) ? counts[token]! : '';
  return [postings, own, Array.from(ids, (id) => (lengths[id] ?? 0).toString(36)).join(',')];
}

/** Every term of the index with its entry, in shard order. */
function allTerms(index: Fields): [string, TermEntry][] {
  const entries = new Map<string, TermEntry>();
  for (const field of SEARCH_FIELDS) {
    walk(index[field].tree, '', (token, postings) => {
      const made = termField(index[field], token, postings);
      if (made) (entries.get(token) ?? entries.set(token, {}).get(token)!)[field] = made;
    });
  }
  return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * One term's entry again, or null when no field of the index holds it now.
 * Where its postings and counts are the previous entry's, only the lengths of
 * the `changed` documents can differ, and only they are put in: the terms an
 * edit touches include the commonest words, thousands of postings each.
 */
function termEntry(index: Fields, token: string, was: TermEntry | undefined, changed: readonly number[]): TermEntry | null {
  let entry: TermEntry | null = null;
  for (const field of SEARCH_FIELDS) {
    const postings = findWord(index[field].tree, token);
    if (!postings) continue;
    const { lengths, counts } = index[field];
    const before = was?.[field];
    const made =
      before && before[0] === postings && before[1] === (Object.hasOwn(counts, token) ? counts[token]! : '')
        ? ([postings, before[1], withLengths(before[2], postings, changed, lengths)] as TermField)
        : termField(index[field], token, postings);
    if (made) (entry ??= {})[field] = made;
  }
  return entry;
}

/** A term field's lengths (base 36, comma-separated, one per posting) with those of the `changed` documents it posts put in. */
function withLengths(text: string, postings: string, changed: readonly number[], lengths: readonly number[]): string {
  const ids = decodeIds(postings);
  let out = text;
  for (const id of changed) {
    const k = indexOf(ids, id);
    if (k === -1) continue;
    let start = 0;
    for (let seen = 0; seen < k; start++) if (out.charCodeAt(start) === 44) seen++;
    const end = out.indexOf(',', start);
    out = `${out.slice(0, start)}${(lengths[id] ?? 0).toString(36)}${end === -1 ? '' : out.slice(end)}`;
  }
  return out;
}

/** Where `id` is in ascending `ids`, or -1. */
function indexOf(ids: Int32Array, id: number): number {
  let [lo, hi] = [0, ids.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] === id) return mid;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The previous build's term shards, to cut this build's again where its terms moved (searchShards). */
export interface PreviousTerms {
  /** Its search head's `terms` and `term_tags`. */
  firsts: readonly string[];
  tags: string;
  /** The terms of its shard `n` as its file holds them, or null when that is not the file its head names. */
  read(n: number): Record<string, TermEntry> | null;
}

/**
 * Term shards cut greedily by size: a shard ends at the term that takes it
 * to TERM_SHARD_BYTES. So a cut depends only on the terms from its shard's
 * first on, and a shard starting at the same term as the previous build's,
 * with the same terms, is that shard again.
 */
class TermCut {
  readonly files: (({ path: string } & TaggedFile) | KeptShard)[] = [];
  readonly firsts: string[] = [];
  tags = '';
  private shard: Record<string, TermEntry> = {};
  private size = 0;

  constructor(private readonly tagged: Tagger) {}

  /** Whether the next term starts a shard. */
  get atStart(): boolean {
    return this.size === 0;
  }

  add(token: string, entry: TermEntry): void {
    if (this.size === 0) this.firsts.push(token);
    this.shard[token] = entry;
    this.size += token.length + Object.values(entry).reduce((n, f) => n + f[0].length + f[1].length + f[2].length + 20, 0);
    if (this.size >= TERM_SHARD_BYTES) this.flush();
  }

  /** A shard the previous build wrote at this place, as it is. */
  keep(first: string, tag: string): void {
    this.firsts.push(first);
    this.tags += tag;
    this.files.push({ path: termShardPath(this.firsts.length - 1), tag, kept: true });
  }

  end(): this {
    if (this.size > 0) this.flush();
    return this;
  }

  private flush(): void {
    const file = this.tagged({ terms: this.shard } satisfies Omit<TermShard, 'tag'>);
    this.tags += file.tag;
    this.files.push({ path: termShardPath(this.firsts.length - 1), ...file });
    this.shard = {};
    this.size = 0;
  }
}

/** The last of `firsts` not after `token` (the shard that holds it), or 0. */
function shardOf(firsts: readonly string[], token: string): number {
  let [lo, hi] = [0, firsts.length - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (firsts[mid]! <= token) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The term shards cut again from the previous build's (D56): only the terms
 * in `touched` can have entries other than the previous ones, so a shard
 * none of them falls in, starting where the previous one did, is kept; the
 * others are read from the previous files and those terms made again. Null
 * when a file it needs is not the previous build's (then all are cut whole).
 */
function cutAgain(index: Fields, { previous, touched, changed }: TermsBefore, tagged: Tagger): TermCut | null {
  const { firsts, tags } = previous;
  if (firsts.length === 0 || tags.length !== firsts.length * TAG_LENGTH) return null;
  const moved = new Map<number, string[]>();
  for (const token of touched) {
    const n = shardOf(firsts, token);
    (moved.get(n) ?? moved.set(n, []).get(n)!).push(token);
  }
  const cut = new TermCut(tagged);
  for (let n = 0; n < firsts.length; n++) {
    const own = moved.get(n);
    if (!own && cut.atStart && cut.firsts.length === n) {
      cut.keep(firsts[n]!, tagAt(tags, n));
      continue;
    }
    const terms = previous.read(n);
    if (!terms) return null;
    const tokens = own ? [...new Set([...Object.keys(terms), ...own])] : Object.keys(terms);
    // Sorted again: an object lists integer-like keys ("2024") first.
    for (const token of tokens.sort()) {
      const entry = touched.has(token) ? termEntry(index, token, terms[token], changed) : terms[token]!;
      if (entry) cut.add(token, entry);
    }
  }
  return cut.end();
}

/** What searchShards needs to cut the term shards again rather than whole: the previous build's, the terms whose entries may differ, and the documents that changed. */
export interface TermsBefore {
  previous: PreviousTerms;
  touched: ReadonlySet<string>;
  changed: readonly number[];
}

/** The term shards of an index: cut again from the previous build's where `before` allows (cutAgain), else whole. */
export function cutTerms(index: Fields, tagged: Tagger, before?: TermsBefore): TermCut {
  const again = before && cutAgain(index, before, tagged);
  if (again) return again;
  const cut = new TermCut(tagged);
  for (const [token, entry] of allTerms(index)) cut.add(token, entry);
  return cut.end();
}
