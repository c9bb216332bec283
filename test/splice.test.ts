// The section index, the edits and the file splice of the documents that
// show posts' bodies (emit/splice.ts, emit/splice-file.ts, D56), on texts
// with every width of UTF-8.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { utf8 } from '../build/core/http.js';
import { runtimeModel, runtimeModelSections } from '../build/emit/memory-runtime.js';
import { indexSections, sectionEdits, splicedTag } from '../build/emit/splice.js';
import { spliceFile } from '../build/emit/splice-file.js';
import { buildInto } from './helpers/site.js';

const texts = [
  '# Head\n',
  'plain ascii\n',
  'café, naïve — “quotes”\n',
  '東京 and 🚀 rockets 👩‍💻\n',
  'lone \ud800 surrogate\n',
  '',
  '</feed>\n',
];
const posts = [null, 'a', 'b', 'c', 'd', 'e', null];
const dir = mkdtempSync(join(tmpdir(), 'folio-splice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('indexSections', () => {
  it('finds each section at the bytes its text encodes to, whatever its characters', () => {
    const body = utf8(texts.join(''));
    const index = indexSections({ texts, keys: posts }, body);
    let at = 0;
    const expected: [string, number, number][] = [];
    texts.forEach((text, i) => {
      const size = utf8(text).byteLength;
      if (posts[i]) expected.push([posts[i]!, at, at + size]);
      at += size;
    });
    expect(index.size).toBe(body.byteLength);
    expect(index.keys.map((p, i) => [p, index.starts[i], index.ends[i]])).toEqual(expected);
  });

  it('refuses a body that is not the sections', () => {
    expect(() => indexSections({ texts, keys: posts }, utf8(texts.join('') + 'more'))).toThrow(/report this as a bug/);
  });
});

describe('sectionEdits and spliceFile', () => {
  const edited: Record<string, string> = { a: '', c: 'Ünïcødé 🚀 grew longer\n', e: 'was empty\n' };
  const nextTexts = texts.map((t, i) => edited[posts[i] ?? ''] ?? t);

  it('write the document rendered again, copying the other sections from the previous file', () => {
    const body = utf8(texts.join(''));
    const previous = join(dir, 'previous.txt');
    const next = join(dir, 'next.txt');
    writeFileSync(previous, body);
    const made = sectionEdits(indexSections({ texts, keys: posts }, body), new Set(Object.keys(edited)), (slug) => edited[slug]!);
    spliceFile(previous, next, made!.edits);
    const expected = utf8(nextTexts.join(''));
    expect(readFileSync(next).equals(expected)).toBe(true);
    expect(made!.index).toEqual(indexSections({ texts: nextTexts, keys: posts }, expected));
    expect(readFileSync(previous).equals(body)).toBe(true);
  });

  it('write a new frame around the posts, with or without edited sections', () => {
    const body = utf8(texts.join(''));
    const previous = join(dir, 'framed.txt');
    writeFileSync(previous, body);
    const frame = { head: '# A longer head, “new”\n', tail: '</feed> 🚀\n' };
    for (const changed of [new Set<string>(), new Set(Object.keys(edited))]) {
      const next = join(dir, `framed-${changed.size}.txt`);
      const made = sectionEdits(indexSections({ texts, keys: posts }, body), changed, (slug) => edited[slug]!, frame)!;
      spliceFile(previous, next, made.edits);
      const expectedTexts = (changed.size ? nextTexts : texts).map((t, i) =>
        i === 0 ? frame.head : i === texts.length - 1 ? frame.tail : t,
      );
      const expected = utf8(expectedTexts.join(''));
      expect(readFileSync(next).equals(expected)).toBe(true);
      expect(made.index).toEqual(indexSections({ texts: expectedTexts, keys: posts }, expected));
    }
  });

  it('has no frame to write around no post section', () => {
    const frameOnly = ['{"posts":[', ']}'];
    const index = indexSections({ texts: frameOnly, keys: [null, null] }, utf8(frameOnly.join('')));
    expect(sectionEdits(index, new Set(), () => '', { head: '{"posts":[', tail: ']}' })).toBeNull();
    expect(sectionEdits(index, new Set(), () => '')).toEqual({ edits: [], index });
  });

  it('copy a previous file larger than the copying buffer whole', () => {
    const big = ['x'.repeat(3 * 1024 * 1024 + 5), 'middle\n', 'y'.repeat(1024 * 1024 + 3)];
    const bigPosts = [null, 'm', null];
    const body = utf8(big.join(''));
    const previous = join(dir, 'big.txt');
    const next = join(dir, 'big-next.txt');
    writeFileSync(previous, body);
    const made = sectionEdits(indexSections({ texts: big, keys: bigPosts }, body), new Set(['m']), () => 'the new middle\n');
    spliceFile(previous, next, made!.edits);
    expect(readFileSync(next).equals(utf8(big[0] + 'the new middle\n' + big[2]))).toBe(true);
  });

  it('stops with the file and the fix when the previous file is shorter than its index says', () => {
    const body = utf8(texts.join(''));
    const previous = join(dir, 'short.txt');
    writeFileSync(previous, body.subarray(0, 5));
    const made = sectionEdits(indexSections({ texts, keys: posts }, body), new Set(['d']), () => 'x');
    expect(() => spliceFile(previous, join(dir, 'short-next.txt'), made!.edits)).toThrow(/short\.txt ends at byte 5.*--no-cache/);
  });
});

describe('splicedTag', () => {
  const edits = (text: string) => [{ start: 3, end: 9, bytes: utf8(text) }];

  it('is never an ETag, and tells apart other edits or another previous file', () => {
    const tag = splicedTag('"abc-1"', edits('new'));
    expect(tag.startsWith('"')).toBe(false);
    expect(splicedTag('"abc-1"', edits('new'))).toBe(tag);
    expect(splicedTag('"abc-2"', edits('new'))).not.toBe(tag);
    expect(splicedTag('"abc-1"', edits('new!'))).not.toBe(tag);
    expect(splicedTag('"abc-1"', [{ start: 3, end: 10, bytes: utf8('new') }])).not.toBe(tag);
  });
});

describe('runtimeModelSections', () => {
  // _folio/site.json is spliced like the documents: its sections must join to exactly what JSON.stringify makes of the model.
  it("joins to the JSON of the runtime model, one section per post, on the sample and on another consultant's site", async () => {
    for (const content of ['content', 'test/fixtures/other-consultant']) {
      const { site, out } = await buildInto(content);
      const sections = runtimeModelSections(site);
      expect(sections.texts.join(''), content).toBe(JSON.stringify(runtimeModel(site)));
      expect(sections.keys.filter((p) => p !== null)).toEqual(site.posts.map((p) => p.slug));
      expect(readFileSync(join(out, '_folio/site.json'), 'utf8'), content).toBe(JSON.stringify(runtimeModel(site)));
      rmSync(join(out, '..'), { recursive: true, force: true });
    }
  });
});
