// D56: after an edit, the search thread cuts the term shards again from the
// previous build's (core/search/shards.ts cutAgain) rather than from every
// term of the index, and must cut them exactly as a clean build does: the
// same terms in the same shards, at the same paths. The sample's index has
// too few shards for an edit to leave any alone, so these edits run on a
// larger corpus made from its sources, with seeded random edits.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEARCH_HEAD_PATH, termShardPath } from '../build/core/edge.js';
import type { SearchIndexFile } from '../build/core/search/format.js';
import { searchShards, type PreviousTerms, type SearchHead, type TermShard } from '../build/core/search/shards.js';
import { tagged } from '../build/emit/edge.js';
import { sha1 } from '../build/emit/ledger.js';
import type { SearchFiles } from '../build/emit/search-files.js';
import { indexBytes } from '../build/emit/search-index.js';
import { ENGLISH } from '../build/core/search/tokenizer.js';
import type { PreviousIndex } from '../build/emit/search-patch.js';
import { searchSources, type SearchSource } from '../build/emit/search-sources.js';
import { buildInto } from './helpers/site.js';

const SITE_URL = 'https://ada.example';
let built: Awaited<ReturnType<typeof buildInto>>;
let corpus: SearchSource[];
let base: SearchFiles;

/** A word of letters only for `n` (0 → "a", 26 → "ba"): the tokenizer keeps it whole. */
const letters = (n: number): string => (n >= 26 ? letters(Math.floor(n / 26) - 1) : '') + String.fromCharCode(97 + (n % 26));

/** mulberry32: the same edits on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A word no real text holds: `n` in letters after `first`, so words of one `first` sort together. */
const word = (first: number, n: number) => `${letters(first % 26)}${letters(n)}zq`;

/** The previous build's index as an incremental build reads it (search-index.ts readPreviousIndex), from the files it wrote. */
function previousOf(files: SearchFiles): PreviousIndex {
  const body = (path: string) => {
    const file = files.shards.find((f) => f.path === path);
    return file && 'body' in file ? Buffer.from(file.body) : null;
  };
  const head = JSON.parse(body(SEARCH_HEAD_PATH)!.toString('utf8')) as SearchHead;
  return {
    memo: files.memo,
    bytes: files.bytes,
    sha1: sha1(files.bytes),
    shards: new Map(files.shards.map((f) => [f.path, 'hash' in f ? f.hash : f.kept])),
    docTags: head.doc_tags,
    terms: { firsts: head.terms, tags: head.term_tags, files: head.terms.map((_, n) => body(termShardPath(n))) },
  };
}

beforeAll(async () => {
  built = await buildInto();
  // Six copies of the sample's documents: bodies with words of their own over the whole alphabet (some 34 term shards),
  // and titles with 30 of one letter, which an edit can take out again.
  const sources = searchSources(built.site);
  corpus = Array.from({ length: 6 }, (_, copy) =>
    sources.map((s, i) => ({
      ...structuredClone(s),
      id: `${s.id}-${copy}`,
      key: `${s.key}-${copy}`,
      title: `${s.title} ${Array.from({ length: 30 }, (_, k) => word(i + copy, 1000 * copy + 30 * i + k)).join(' ')}`,
      markdown: `${s.markdown}\n\n${Array.from({ length: 40 }, (_, k) => word(k, 50_000 + 1000 * copy + 40 * i + k)).join(' ')}`,
    })),
  ).flat();
  base = indexBytes(structuredClone(corpus), SITE_URL, ENGLISH);
}, 120_000);
afterAll(() => rm(join(built.out, '..'), { recursive: true, force: true }));

const termShards = (files: SearchFiles) => files.shards.filter((f) => f.path.includes('/terms-'));

it('has a corpus of many term shards', () => {
  expect(termShards(base).length).toBeGreaterThan(25);
});

it('cuts the term shards after random edits exactly as a clean build does, keeping those it can', () => {
  const previous = previousOf(base);
  let kept = 0;
  let renumbered = 0;
  for (let seed = 1; seed <= 20; seed++) {
    const next = random(seed);
    const edited = structuredClone(corpus);
    for (let e = 0; e < 1 + Math.floor(next() * 3); e++) {
      const doc = edited[Math.floor(next() * edited.length)]!;
      const first = Math.floor(next() * 26);
      const words = Array.from({ length: 1 + Math.floor(next() * 120) }, (_, k) => word(first, 100_000 + 1000 * seed + 200 * e + k));
      // The title's length alone moves (its words of one letter added or taken out), the body's (words over the alphabet
      // added, or the body cut short), or the tags'.
      const kind = Math.floor(next() * 5);
      if (kind === 0) doc.title += ` ${words.join(' ')}`;
      else if (kind === 1) doc.title = doc.title.split(' ').slice(0, -30).join(' ');
      else if (kind === 2) doc.markdown += `\n\n${words.map((w, k) => word(k, 0) + w).join(' ')}`;
      else if (kind === 3) doc.markdown = doc.markdown.slice(0, Math.floor(doc.markdown.length * next()));
      else doc.tags = `${doc.tags} ${words.slice(0, 3).join(' ')}`;
    }
    const whole = indexBytes(structuredClone(edited), SITE_URL, ENGLISH);
    const again = indexBytes(structuredClone(edited), SITE_URL, ENGLISH, previous);
    expect(Buffer.from(again.bytes).equals(whole.bytes), `seed ${seed}: patched, the same index`).toBe(true);
    expect(again.shards.map((f) => f.path)).toEqual(whole.shards.map((f) => f.path));
    again.shards.forEach((file, i) => {
      const made = whole.shards[i]!;
      if (!('hash' in made)) throw new Error(`${made.path}: a shard made whole is never kept`);
      if ('kept' in file) expect(previous.shards.get(file.path), `seed ${seed}: ${file.path}`).toBe(made.hash);
      else expect(file, `seed ${seed}: ${file.path}`).toEqual(made);
    });
    const terms = termShards(again);
    kept += terms.filter((f) => 'kept' in f).length;
    if (terms.length !== termShards(base).length) renumbered++;
  }
  // The cut was made again, not whole, and the edits moved the numbering of the shards after them.
  expect(kept).toBeGreaterThan(40);
  expect(renumbered).toBeGreaterThan(3);
}, 120_000);

it('keeps a shard only at the place the previous build had it, however its terms line up', () => {
  const { data } = JSON.parse(Buffer.from(base.bytes).toString('utf8')) as SearchIndexFile;
  const whole = searchShards(data, tagged);
  const body = (f: (typeof whole)[number]) => ('body' in f ? f.body : null);
  /** A file as its path and whether it was kept or made (and then its hash): short to compare, and to read when not equal. */
  const made = (f: (typeof whole)[number]) => `${f.path} ${'hash' in f ? f.hash : 'kept'}`;
  const head = JSON.parse(body(whole[0]!)!) as SearchHead;
  const terms = whole.filter((f) => f.path.includes('/terms-')).map((f) => (JSON.parse(body(f)!) as TermShard).terms);
  // The same cut: every term shard is kept.
  const same: PreviousTerms = { firsts: head.terms, tags: head.term_tags, read: (n) => terms[n]! };
  const kept = searchShards(data, tagged, undefined, { previous: same, touched: new Set(), changed: [] });
  expect(kept.filter((f) => f.path.includes('/terms-')).every((f) => 'kept' in f)).toBe(true);
  expect(body(kept[0]!)).toBe(body(whole[0]!));
  // A previous cut with one more shard in front, of a term no document holds now: the others start where this
  // build's do, one place later, so each is made again at its own place rather than kept at another's.
  const ahead: PreviousTerms = {
    firsts: ['!', ...head.terms],
    tags: `${'-'.repeat(8)}${head.term_tags}`,
    read: (n) => (n === 0 ? { '!': { title: ['1', '', '1'] } } : terms[n - 1]!),
  };
  const again = searchShards(data, tagged, undefined, { previous: ahead, touched: new Set(['!']), changed: [] });
  expect(again.map(made)).toEqual(whole.map(made));
});
