// D49 and D50 as properties: whatever a title, summary or tag holds
// (`</script>`, `<!--`, `-->`, quotes, ampersands, emoji, right-to-left text,
// U+2028), the post page still has one JSON-LD block that an HTML parser
// (parse5) hands over whole and that parses back to the original strings, and
// the social-card tags read back verbatim. Pages are rendered by the core
// from the sample's model with one post's fields replaced.
import fc from 'fast-check';
import { parse } from 'parse5';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import type { Post, Site } from '../build/core/model.js';
import { findPage } from '../build/core/pages/index.js';
import { SiteModel } from '../build/core/site-model.js';
import { renderPage } from '../build/core/pages/layout.js';
import { jsonLdText } from '../build/core/pages/structured-data.js';
import { pagePath } from '../build/core/urls.js';
import { buildSite } from '../build/site.js';
import { NOW } from './helpers/site.js';

interface El {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: El[];
  value?: string;
}
const all = (n: El, out: El[] = []): El[] => (out.push(n), (n.childNodes ?? []).forEach((c) => all(c, out)), out);
const attr = (el: El, name: string) => el.attrs?.find((a) => a.name === name)?.value;

/** The pieces that break naive embedding, mixed with ordinary and far-away characters. */
const HOSTILE = [
  '</script>',
  '</SCRIPT >',
  '<script>',
  '<!--',
  '-->',
  '<!-- </script>',
  '"',
  "'",
  '&',
  '&amp;',
  '\\',
  '\u2028',
  '\u2029',
  '😀',
  '👩🏽‍💻',
  'שלום',
  'مرحبا',
  '\u202e',
  '\u0000',
  '\ud800',
];
const piece = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 4 }));
const text = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

let base: Site;
let post: Post;
beforeAll(async () => {
  base = buildSite(await loadContent('content'), { now: NOW });
  post = base.posts[0]!;
});

function pageOf(site: Site, path: string): { blocks: unknown[]; meta: Map<string, string>; scripts: number } {
  const doc = parse(renderPage(site, findPage(new SiteModel(site), path)!)) as unknown as El;
  const nodes = all(doc);
  const scripts = nodes.filter((n) => n.nodeName === 'script');
  const meta = new Map<string, string>();
  for (const m of nodes.filter((n) => n.nodeName === 'meta')) {
    const key = attr(m, 'property') ?? attr(m, 'name');
    if (key) meta.set(key, attr(m, 'content') ?? '');
  }
  return { blocks: scripts.map((s) => JSON.parse((s.childNodes ?? []).map((t) => t.value ?? '').join(''))), meta, scripts: scripts.length };
}

// HTML parsing turns a NUL into U+FFFD and CR LF into LF in attributes; JSON-LD keeps every code unit.
const asParsedAttribute = (s: string) => s.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');

describe('JSON-LD and social cards with any text (D49, D50)', () => {
  it('never lets the JSON leave its script element, and reads every string back', () => {
    fc.assert(
      fc.property(text, text, fc.array(text, { maxLength: 4 }), (title, summary, tags) => {
        const edited: Post = { ...post, title, summary, tags };
        const site: Site = { ...base, posts: base.posts.map((p) => (p === post ? edited : p)) };
        const { blocks, meta, scripts } = pageOf(site, pagePath.post(post.slug));
        expect(scripts).toBe(1);
        const article = (blocks[0] as { '@graph': Record<string, unknown>[] })['@graph'][0]!;
        expect(article.headline).toBe(title);
        expect(article.description).toBe(summary);
        expect(article.keywords).toEqual(tags);
        expect(meta.get('og:title')).toBe(asParsedAttribute(title));
        expect(meta.get('og:description')).toBe(asParsedAttribute(summary));
      }),
      { numRuns: 200 },
    );
  });

  it('escapes exactly <, >, &, U+2028 and U+2029, and nothing a JSON reader would read differently', () => {
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.integer(), fc.array(text))), (data) => {
        const out = jsonLdText(data);
        expect(out).not.toMatch(/[<>&\u2028\u2029]/);
        expect(JSON.parse(out)).toEqual(data);
      }),
    );
  });
});

describe('the social image and the post image (D49, D50)', () => {
  it("takes the post's first image, else social_image, else the profile photo, else none", () => {
    const photo = { photo_url: 'https://hannabrink.example/media/photo.jpg', photo_alt: 'Hanna Brink, smiling' };
    const image = { url: 'https://hannabrink.example/media/codes.png', alt: 'Bounce codes by provider', width: 1200, height: 630 };
    const card = { url: 'https://hannabrink.example/card.png', alt: 'The site card' };
    const withImage: Post = { ...post, image };
    const site = (config: Partial<Site['config']>, profile: Partial<Site['profile']>): Site => ({
      ...base,
      config: { ...base.config, ...config },
      profile: { ...base.profile, ...profile },
      posts: base.posts.map((p) => (p === post ? withImage : p)),
    });
    const cases: [Site, string, string | null, string | null][] = [
      [site({ social_image: card }, photo), pagePath.post(post.slug), image.url, image.alt],
      [site({ social_image: card }, photo), pagePath.about(), card.url, card.alt],
      [site({ social_image: null }, photo), pagePath.home(), photo.photo_url, photo.photo_alt],
      [site({ social_image: null }, { photo_url: null, photo_alt: null }), pagePath.blog(), null, null],
    ];
    for (const [s, path, url, alt] of cases) {
      const { meta } = pageOf(s, path);
      expect(meta.get('og:image') ?? null, path).toBe(url);
      expect(meta.get('og:image:alt') ?? null, path).toBe(alt);
      expect(meta.get('twitter:card'), path).toBe(url ? 'summary_large_image' : 'summary');
    }
    const article = (pageOf(cases[0]![0], pagePath.post(post.slug)).blocks[0] as { '@graph': Record<string, unknown>[] })['@graph'][0]!;
    expect(article.image).toBe(image.url);
    const person = (pageOf(cases[2]![0], pagePath.about()).blocks[0] as { '@graph': { mainEntity: Record<string, unknown> }[] })[
      '@graph'
    ][0]!.mainEntity;
    expect(person.image).toBe(photo.photo_url);
  });
});
