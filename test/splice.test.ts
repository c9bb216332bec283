// The section index and the splice of documents that show posts' bodies
// (emit/splice.ts, D56), on texts with every width of UTF-8.
import { describe, expect, it } from 'vitest';
import { etag, etagOfParts, utf8 } from '../build/core/http.js';
import { indexSections, spliceSections } from '../build/emit/splice.js';

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

describe('indexSections', () => {
  it('finds each section at the bytes its text encodes to, whatever its characters', () => {
    const body = utf8(texts.join(''));
    const index = indexSections({ texts, posts }, body);
    let at = 0;
    const expected: [string, number, number][] = [];
    texts.forEach((text, i) => {
      const size = utf8(text).byteLength;
      if (posts[i]) expected.push([posts[i]!, at, at + size]);
      at += size;
    });
    expect(index.size).toBe(body.byteLength);
    expect(index.posts.map((p, i) => [p, index.starts[i], index.ends[i]])).toEqual(expected);
  });

  it('refuses a body that is not the sections', () => {
    expect(() => indexSections({ texts, posts }, utf8(texts.join('') + 'more'))).toThrow(/report this as a bug/);
  });
});

describe('spliceSections', () => {
  it('gives the bytes and the index of the document rendered again, as parts', () => {
    const body = utf8(texts.join(''));
    const index = indexSections({ texts, posts }, body);
    const edited = { c: 'Ünïcødé 🚀 grew longer\n', e: 'was empty\n' } as Record<string, string>;
    const spliced = spliceSections(body, index, new Set(Object.keys(edited)), (slug) => edited[slug]!)!;
    const nextTexts = texts.map((t, i) => edited[posts[i] ?? ''] ?? t);
    const expected = utf8(nextTexts.join(''));
    expect(Buffer.concat(spliced.parts).equals(expected)).toBe(true);
    expect(spliced.size).toBe(expected.byteLength);
    expect(etagOfParts(spliced.parts)).toBe(etag(expected));
    expect(spliced.index).toEqual(indexSections({ texts: nextTexts, posts }, expected));
  });

  it('refuses a previous file of another size', () => {
    const body = utf8(texts.join(''));
    const index = indexSections({ texts, posts }, body);
    expect(spliceSections(body.subarray(1), index, new Set(['a']), () => 'x')).toBeNull();
  });
});
