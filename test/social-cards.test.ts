// D50 social cards take a raster image, through a real build and `folio serve`
// on 127.0.0.1: og:image, its alt text, twitter:card and the BlogPosting's
// image are a post's first raster image past an SVG, else the profile photo,
// else none, with a summary card.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { attr, byTag, parseHtml, textOf } from './helpers/html.js';
import { servedImageSample, sha, SITE } from './helpers/images.js';
import { copyContent, NOW, tempDir } from './helpers/site.js';

const s = servedImageSample();

/** A page's social card (D50): its og:image, og:image:alt and twitter:card, and the image of its BlogPosting. */
async function card(at: (path: string) => string, path: string) {
  const res = await fetch(at(path));
  expect(res.status, path).toBe(200);
  const doc = parseHtml(await res.text());
  const meta = new Map(byTag(doc, 'meta').map((m) => [attr(m, 'property') ?? attr(m, 'name'), attr(m, 'content')]));
  const script = byTag(doc, 'script').find((e) => attr(e, 'type') === 'application/ld+json');
  const graph = (JSON.parse(script ? textOf(script) : '{"@graph":[]}') as { '@graph': { '@type': string; image?: string }[] })['@graph'];
  return {
    image: meta.get('og:image'),
    alt: meta.get('og:image:alt'),
    twitter: meta.get('twitter:card'),
    article: graph.find((n) => n['@type'] === 'BlogPosting')?.image,
  };
}

describe('social cards take a raster image (D50)', () => {
  it("uses a post's first raster image, past an SVG, in og:image, its alt text and the structured data", async () => {
    const jpeg = (await readdir(join(s.out, 'media'))).find((f) => /^[0-9a-f]{20}\.jpg$/.test(f))!;
    expect(await card(s.at, '/blog/retiring-pid-files')).toEqual({
      image: `${SITE}/media/${jpeg}`,
      alt: 'A wide photo of a blue wall',
      twitter: 'summary_large_image',
      article: `${SITE}/media/${jpeg}`,
    });
    const feed = (await (await fetch(s.at('/feed.json'))).json()) as { items: { url: string; image?: string }[] };
    expect(feed.items.find((i) => i.url.endsWith('/blog/retiring-pid-files'))!.image).toBe(`${SITE}/media/${jpeg}`);
  });

  it('falls through to the profile photo for a post whose only image is an SVG', async () => {
    const photo = `${SITE}/media/${sha(s.photoBytes).slice(0, 20)}.png`;
    const shown = await card(s.at, '/blog/bounce-handling');
    expect(shown).toEqual({
      image: photo,
      alt: expect.stringMatching(/^Illustration of Hanna Brink/),
      twitter: 'summary_large_image',
      article: undefined,
    });
    expect(shown.image).not.toMatch(/\.svg$/);
  });

  it('shows no image, and a summary card, when the only one left is an SVG profile photo', async () => {
    const dir = await copyContent();
    const file = join(dir, 'profile.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^photo: .*$/m, 'photo: ./posts/img/bounce-classifier.svg'));
    const out = join(await tempDir(), 'dist');
    await build({ content: dir, out, now: NOW });
    try {
      for (const path of ['/', '/about', '/blog/bounce-handling']) {
        const html = await readFile(join(out, path === '/' ? 'index.html' : `${path.slice(1)}.html`), 'utf8');
        expect(html, path).not.toContain('og:image');
        expect(html, path).toContain('<meta name="twitter:card" content="summary">');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(join(out, '..'), { recursive: true, force: true });
    }
  });
});
