// D40, D56: an incremental build patches the previous build's search index
// (build/emit/search-patch.ts) rather than inserting every document again,
// and the patched index is byte for byte the one Orama makes from scratch.
// Whenever that cannot be proven (other documents, another order, a file
// that is not the one the state describes), it is not patched at all.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchIndex } from '../build/core/search/engine.js';
import { searchLanguage } from '../build/core/search/language.js';
import { ENGLISH } from '../build/core/search/tokenizer.js';
import { sha1 } from '../build/emit/ledger.js';
import type { SearchFiles } from '../build/emit/search-files.js';
import { indexBytes, patchedFiles, patchJob, readPreviousIndex } from '../build/emit/search-index.js';
import type { Sink } from '../build/emit/emit-options.js';
import { patchIndex, sourceDigest, type PreviousIndex } from '../build/emit/search-patch.js';
import { isWhole, searchSources, type KeptSource, type SearchSource } from '../build/emit/search-sources.js';
import { buildInto } from './helpers/site.js';

let built: Awaited<ReturnType<typeof buildInto>>;
let previous: PreviousIndex & { bytes: Uint8Array };
let sources: SearchSource[];
const siteUrl = () => built.site.config.site_url;
/** A sink that only reads the output (readPreviousIndex reads nothing else of it). */
const sinkOf = (out: string) => ({ read: (path: string) => readFile(join(out, path)).catch(() => null) }) as unknown as Sink;

beforeAll(async () => {
  built = await buildInto();
  // As an incremental build reads it: the index file, its shards' hashes, and its search head's tags and term shards.
  previous = (await readPreviousIndex(built.state, sinkOf(built.out), null)) as typeof previous;
  expect(previous.bytes).toBeInstanceOf(Uint8Array);
  expect(previous.terms!.files.length).toBeGreaterThan(3);
  sources = searchSources(built.site);
}, 120_000);
afterAll(() => rm(join(built.out, '..'), { recursive: true, force: true }));

/** The index of `edited` both ways: patched from the sample's, and made whole. */
function both(edited: SearchSource[]) {
  const digests = edited.map(sourceDigest);
  const patched = patchIndex(previous, structuredClone(edited), digests, siteUrl(), ENGLISH);
  const whole = indexBytes(structuredClone(edited), siteUrl(), ENGLISH);
  const fromPatch = indexBytes(structuredClone(edited), siteUrl(), ENGLISH, previous);
  return { patched, whole, fromPatch };
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

/** A word of letters only for `n` (0 → "a", 26 → "ba"): the tokenizer keeps it whole. */
const letters = (n: number): string => (n >= 26 ? letters(Math.floor(n / 26) - 1) : '') + String.fromCharCode(97 + (n % 26));

/** Shards of a patch against those made whole: a shard named as kept is the previous build's file, which must be the one made whole. */
function expectSameShards(patched: SearchFiles['shards'], whole: SearchFiles['shards']) {
  expect(patched.map((f) => f.path)).toEqual(whole.map((f) => f.path));
  patched.forEach((file, i) => {
    const made = whole[i]!;
    if (!('hash' in made)) throw new Error(`${made.path}: a shard made whole is never kept`);
    if ('kept' in file) {
      expect(file.kept, file.path).toBe(made.hash);
      expect(previous.shards.get(file.path), file.path).toBe(made.hash);
    } else expect(file, file.path).toEqual(made);
  });
}

describe('a patched search index', () => {
  it('is remembered by the build: the state describes the very file written', () => {
    expect(previous.memo.digests).toHaveLength(sources.length);
    expect(previous.memo.hash).toBe(JSON.parse(text(previous.bytes)).hash);
    expect(sha1(previous.bytes)).toBe(previous.sha1);
  });

  const edits: [string, (s: SearchSource[]) => void][] = [
    ['nothing changed', () => {}],
    ['a body gains words no other document has, and loses all of its own', (s) => (s[0]!.markdown = 'Quixotic zebrafish\n\nwobble.')],
    ['a body repeats a word (its count above one)', (s) => (s[1]!.markdown += '\n\nrelay relay relay relays relaying')],
    ['a title and tags change', (s) => ((s[2]!.title = 'Entirely renamed'), (s[2]!.tags = 'brand-new-tag email'))],
    ['a body is emptied', (s) => (s[3]!.markdown = '')],
    [
      'a project and a service change',
      (s) => ['project', 'service'].forEach((t) => (s.find((x) => x.type === t)!.markdown += ' Kubernetes operators.')),
    ],
    ["a service's best-fit list changes", (s) => s.find((x) => x.type === 'service')!.extra.push('Teams moving off Heroku')],
    [
      // Some 30 KB of new terms between "xa…" and "xz…": the shards from there on are cut at other terms, and numbered anew.
      'a body gains enough new words to move the cut of every term shard after them',
      (s) => (s[4]!.markdown += `\n\n${Array.from({ length: 1500 }, (_, i) => `x${letters(i)}quill`).join(' ')}`),
    ],
    [
      // The shared word's postings are made again for the second, and must keep the first, whose count did not move.
      'two bodies change, one gaining a word both hold and the other only a word of its own',
      (s) => {
        const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{6,}/g));
        const [a, b] = [s[0]!, s[1]!];
        const shared = [...words(a.markdown)].find((w) => words(b.markdown).has(w))!;
        expect(shared).toBeTruthy();
        a.markdown += ' Zanzibarian.';
        b.markdown += ` ${shared}.`;
      },
    ],
  ];
  for (const [name, change] of edits) {
    it(`equals the index made whole when ${name}`, () => {
      const edited = structuredClone(sources);
      change(edited);
      const { patched, whole, fromPatch } = both(edited);
      expect(patched, 'patched rather than made whole').not.toBeNull();
      expect(text(fromPatch.bytes)).toBe(text(whole.bytes));
      expectSameShards(fromPatch.shards, whole.shards);
      expect([...fromPatch.memo.words].sort()).toEqual([...whole.memo.words].sort());
      expect(fromPatch.memo.digests).toEqual(whole.memo.digests);
      // The search thread's way: a job of the changed sources, the others reduced to their id.
      const job = patchJob(edited, previous.memo)!;
      expect(job.sources.filter((source) => 'markdown' in source).length).toBeLessThanOrEqual(2);
      const fromJob = patchedFiles(structuredClone(job), siteUrl(), previous, ENGLISH)!;
      expect(text(fromJob.bytes)).toBe(text(whole.bytes));
      expectSameShards(fromJob.shards, whole.shards);
      expect(fromJob.memo).toEqual(fromPatch.memo);
    });
  }

  it('names the shards the previous build wrote the same rather than sending them, and sends the others', () => {
    const edited = structuredClone(sources);
    edited[0]!.markdown += '\n\nQuixotic zebrafish.';
    const { fromPatch } = both(edited);
    const kept = fromPatch.shards.filter((f) => 'kept' in f);
    const sent = fromPatch.shards.filter((f) => 'body' in f);
    expect(kept.length).toBeGreaterThan(sent.length);
    // The head always goes (the edge head names its tag); every other shard sent is new or changed.
    expect(sent[0]!.path).toBe('_folio/edge/search.json');
    for (const file of sent.slice(1)) expect(previous.shards.get(file.path), file.path).not.toBe('hash' in file ? file.hash : null);
    // Nothing changed: only the head goes.
    expect(
      both(structuredClone(sources))
        .fromPatch.shards.filter((f) => 'body' in f)
        .map((f) => f.path),
    ).toEqual(['_folio/edge/search.json']);
  });

  it("cuts the term shards again from the previous build's: it reads only those an edit reaches, and keeps the rest", () => {
    const edited = structuredClone(sources);
    // A word of the title for another of the same length: its field's length in that document stays.
    edited[0]!.title = edited[0]!.title.replace(/\b[a-z]{5,}\b/i, (w) => 'q'.repeat(w.length));
    expect(edited[0]!.title).not.toBe(sources[0]!.title);
    const read: number[] = [];
    const files = new Proxy(previous.terms!.files, {
      get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) && read.push(Number(key)), Reflect.get(target, key)),
    });
    const fromPatch = indexBytes(structuredClone(edited), siteUrl(), ENGLISH, { ...previous, terms: { ...previous.terms!, files } });
    expectSameShards(fromPatch.shards, indexBytes(structuredClone(edited), siteUrl(), ENGLISH).shards);
    const terms = fromPatch.shards.filter((f) => f.path.includes('/terms-'));
    expect(read.length).toBeGreaterThan(0);
    expect(read.length).toBeLessThan(terms.length);
    expect(terms.filter((f) => 'kept' in f).length).toBe(terms.length - new Set(read).size);
  });

  it('cuts the term shards whole when a previous one is not the file the build recorded, and still writes the right ones', () => {
    const edited = structuredClone(sources);
    edited[0]!.markdown += '\n\nQuixotic zebrafish.';
    const whole = indexBytes(structuredClone(edited), siteUrl(), ENGLISH).shards;
    const files = previous.terms!.files;
    for (const tampered of [
      files.map(() => null),
      files.map((f) => f && Buffer.from(text(f).replace('"terms":{', '"terms":{"aaa":{},'))),
    ]) {
      const fromPatch = indexBytes(structuredClone(edited), siteUrl(), ENGLISH, {
        ...previous,
        terms: { ...previous.terms!, files: tampered },
      });
      expectSameShards(fromPatch.shards, whole);
    }
  });

  it('makes the same job when the sources the previous build indexed are kept, reduced to their place and tags', () => {
    const kept = ({ id, type, key, tags }: SearchSource): KeptSource => ({ id, type, key, tags });
    // searchSources reduces those it is told are kept, and reads nothing else of them.
    expect(searchSources(built.site, () => true)).toEqual(sources.map(kept));
    expect(searchSources(built.site, (type) => type !== 'post')).toEqual(sources.map((s) => (s.type === 'post' ? s : kept(s))));
    const edited = structuredClone(sources);
    edited[5]!.markdown += '\n\nQuixotic zebrafish.';
    const job = patchJob(edited, previous.memo)!;
    expect(patchJob([...edited.slice(0, 5).map(kept), edited[5]!, ...edited.slice(6).map(kept)], previous.memo)).toEqual(job);
    // Kept wrongly, the job misses the edit: only sources that did not change may be kept.
    expect(patchJob(edited.map(kept), previous.memo)!.sources.filter(isWhole)).toEqual([]);
  });

  it('sends the search thread no patch job when the documents are not the ones indexed, or too many changed', () => {
    expect(patchJob(sources.slice(1), previous.memo)).toBeNull();
    const most = structuredClone(sources);
    for (const source of most) source.markdown += ' Changed.';
    expect(patchJob(most, previous.memo)).toBeNull();
  });

  it('leaves a patch job to a whole build when the previous file is not the one the state describes', () => {
    const edited = structuredClone(sources);
    edited[0]!.markdown += ' Changed.';
    const job = patchJob(edited, previous.memo)!;
    const tampered = { ...previous, bytes: Buffer.concat([previous.bytes, Buffer.from(' ')]) };
    expect(patchedFiles(job, siteUrl(), tampered, ENGLISH)).toBeNull();
  });

  it('finds the new words and no longer the old ones', async () => {
    const edited = structuredClone(sources);
    const old = edited[0]!;
    old.markdown = 'Quixotic zebrafish.';
    const index = openSearchIndex(text(indexBytes(structuredClone(edited), siteUrl(), ENGLISH, previous).bytes));
    expect(index.search('zebrafish', 10).hits.map((h) => h.id)).toEqual([old.key]);
    const before = openSearchIndex(text(previous.bytes));
    const word = sources[0]!.markdown.match(/[A-Za-z]{9,}/)![0];
    const holders = (i: typeof index) => i.search(word, 50).hits.map((h) => h.id);
    expect(holders(before)).toContain(old.key);
    expect(holders(index)).not.toContain(old.key);
  });
});

describe('the index is made whole, not patched, when', () => {
  const refused: [string, (s: SearchSource[]) => SearchSource[], (p: PreviousIndex) => PreviousIndex][] = [
    ['a document is added', (s) => [...s, { ...s[0]!, id: 'post:new', key: 'new' }], (p) => p],
    ['documents change order', (s) => [s[1]!, s[0]!, ...s.slice(2)], (p) => p],
    ['a document is removed', (s) => s.slice(1), (p) => p],
    ['most documents changed', (s) => s.map((x) => ({ ...x, markdown: `${x.markdown} more` })), (p) => p],
    ['the file is not the one the state describes', (s) => s, (p) => ({ ...p, sha1: sha1(Buffer.from('other')) })],
    ['the memo is of another file', (s) => s, (p) => ({ ...p, memo: { ...p.memo, hash: 'sha256:0' } })],
    ['the file is not JSON', (s) => s, (p) => ({ ...p, bytes: Buffer.from('{'), sha1: sha1(Buffer.from('{')) })],
  ];
  for (const [name, change, tamper] of refused) {
    it(name, () => {
      const edited = change(structuredClone(sources));
      expect(patchIndex(tamper(previous), edited, edited.map(sourceDigest), siteUrl(), ENGLISH)).toBeNull();
      // …and indexBytes, given the same, still writes the right index.
      expect(text(indexBytes(structuredClone(edited), siteUrl(), ENGLISH, tamper(previous)).bytes)).toBe(
        text(indexBytes(structuredClone(edited), siteUrl(), ENGLISH).bytes),
      );
    });
  }

  it('a document is added, and the shards the previous build wrote the same are still named, not sent', () => {
    // Added last: the files of stored documents before it hold the same documents.
    const edited = [...structuredClone(sources), { ...sources[0]!, id: 'post:new', key: 'new' }];
    const fromPrevious = indexBytes(structuredClone(edited), siteUrl(), ENGLISH, previous);
    const whole = indexBytes(structuredClone(edited), siteUrl(), ENGLISH);
    expectSameShards(fromPrevious.shards, whole.shards);
    expect(fromPrevious.shards.filter((f) => 'kept' in f).length).toBeGreaterThan(0);
  });

  it('the site moves to another address', () => {
    expect(patchIndex(previous, sources, sources.map(sourceDigest), 'https://elsewhere.example', ENGLISH)).toBeNull();
  });

  it('the site is now written in another language: its words are tokenized otherwise', async () => {
    expect(patchIndex(previous, sources, sources.map(sourceDigest), siteUrl(), searchLanguage('de'))).toBeNull();
  });
});
