// D44 images in posts, through a real build and `folio serve` on 127.0.0.1:
// fingerprinted originals under /media/ with immutable caching, WebP variants
// in srcset, sizes on every <img>, SVG's policy, absolute addresses in the
// twins, API, feeds and llms-full.txt, and a post's image in the model.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { attr } from './helpers/html.js';
import { pngSize, servedImageSample, sha, SITE } from './helpers/images.js';

const s = servedImageSample();
const { page } = s;

describe('images in posts (D44)', () => {
  it('writes each image once, at /media/<content hash>.<ext>', async () => {
    const files = await readdir(join(s.out, 'media'));
    const png = await readFile('content/posts/img/proxyjump-session.png');
    const originals = files.filter((f) => !f.includes('-'));
    expect(originals).toContain(`${sha(png).slice(0, 20)}.png`);
    // Named by two posts, written once.
    expect(originals.filter((f) => f.endsWith('.png') && f.startsWith(sha(png).slice(0, 20)))).toHaveLength(1);
    for (const f of originals) expect(f).toMatch(/^[0-9a-f]{20}\.(png|jpg|svg)$/);
  });

  it('gives every <img> its size, srcset of narrower WebP variants, lazy loading and async decoding', async () => {
    const imgs = await page('/blog/retiring-pid-files');
    const png = await readFile('content/posts/img/proxyjump-session.png');
    const { width, height } = pngSize(png);
    const pj = imgs.find((i) => attr(i, 'alt') === 'The ProxyJump session again')!;
    expect(attr(pj, 'src')).toBe(`/media/${sha(png).slice(0, 20)}.png`);
    expect([attr(pj, 'width'), attr(pj, 'height')]).toEqual([String(width), String(height)]);
    expect(attr(pj, 'loading')).toBe('lazy');
    expect(attr(pj, 'decoding')).toBe('async');
    expect(attr(pj, 'sizes')).toBeTruthy();
    const candidates = attr(pj, 'srcset')!
      .split(', ')
      .map((c) => c.split(' '));
    expect(candidates.map(([, w]) => w)).toEqual(['480w', '960w', '1440w', `${width}w`]);
    for (const [url, w] of candidates.slice(0, 3)) {
      const res = await fetch(s.at(url!));
      expect(res.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.format).toBe('webp');
      expect(`${meta.width}w`).toBe(w);
      expect(meta.height).toBe(Math.round((height * meta.width!) / width));
    }

    const wide = imgs.find((i) => attr(i, 'alt') === 'A wide photo of a blue wall')!;
    expect([attr(wide, 'width'), attr(wide, 'height'), attr(wide, 'title')]).toEqual(['2000', '1000', 'Blue']);
    expect(attr(wide, 'srcset')).toMatch(/-480\.webp 480w, .*-960\.webp 960w, .*-1440\.webp 1440w, \/media\/[0-9a-f]{20}\.jpg 2000w$/);

    // The photo is 800 wide: only the 480 variant is narrower.
    const [photo] = await page('/');
    expect(attr(photo!, 'srcset')).toMatch(/^\/media\/[0-9a-f]{20}-480\.webp 480w, \/media\/[0-9a-f]{20}\.png 800w$/);
  });

  it('resolves a / path against content/static/ and a reference-style image like an inline one', async () => {
    const imgs = await page('/blog/retiring-pid-files');
    const flow = imgs.find((i) => attr(i, 'alt') === 'Flow of a PID file')!;
    const svg = await readFile(join(s.contentDir, 'static/diagrams/flow.svg'));
    expect(attr(flow, 'src')).toBe(`/media/${sha(svg).slice(0, 20)}.svg`);
    // SVG is never resized: no srcset; its own size.
    expect(attr(flow, 'srcset')).toBeUndefined();
    expect([attr(flow, 'width'), attr(flow, 'height')]).toEqual(['300', '120']);
    const ref = imgs.find((i) => attr(i, 'alt') === 'The pipeline')!;
    expect(attr(ref, 'src')).toBe(`/media/${sha(await readFile('content/posts/img/affected-pipeline.svg')).slice(0, 20)}.svg`);
  });

  it('serves originals and variants with immutable caching, through the manifest', async () => {
    const manifest = JSON.parse(await readFile(join(s.out, '_folio/manifest.json'), 'utf8')) as {
      routes: Record<string, [string, number]>;
      header_sets: Record<string, string>[];
    };
    const media = Object.keys(manifest.routes).filter((r) => r.startsWith('/media/'));
    expect(media.length).toBe((await readdir(join(s.out, 'media'))).length);
    for (const path of media) {
      const res = await fetch(s.at(path));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(await readFile(join(s.out, path)))).toBe(true);
      if (!path.includes('-')) expect(path).toContain(sha(body).slice(0, 20));
    }
  });

  it('serves SVG with a policy that stops its script when opened directly', async () => {
    const svg = await readFile(join(s.contentDir, 'static/diagrams/flow.svg'));
    const res = await fetch(s.at(`/media/${sha(svg).slice(0, 20)}.svg`));
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Served as written (never inlined into a page), so the policy is what guards it.
    expect(Buffer.from(await res.arrayBuffer()).equals(svg)).toBe(true);
    const html = await (await fetch(s.at('/blog/retiring-pid-files'))).text();
    expect(html).not.toContain('<svg');
  });

  it('writes absolute URLs of the originals into the twin, content_markdown, llms-full.txt and the feeds', async () => {
    const png = await readFile('content/posts/img/proxyjump-session.png');
    const url = `${SITE}/media/${sha(png).slice(0, 20)}.png`;
    const twin = await (await fetch(s.at('/blog/retiring-pid-files.md'))).text();
    expect(twin).toContain(`![The ProxyJump session again](${url})`);
    expect(twin).toMatch(/!\[The pipeline\]\(https:\/\/hannabrink\.example\/media\/[0-9a-f]{20}\.svg\)/);
    expect(twin).toMatch(/!\[A wide photo of a blue wall\]\(https:\/\/hannabrink\.example\/media\/[0-9a-f]{20}\.jpg "Blue"\)/);
    expect(twin).not.toContain('./img/');
    const api = (await (await fetch(s.at('/api/v1/posts/retiring-pid-files'))).json()) as { content_markdown: string };
    expect(api.content_markdown).toContain(`(${url})`);
    expect(await (await fetch(s.at('/llms-full.txt'))).text()).toContain(`(${url})`);
    const atom = await (await fetch(s.at('/feed.xml'))).text();
    // Atom carries the HTML escaped as text.
    expect(atom).toContain(`src=&quot;${url}&quot;`);
    expect(atom).not.toMatch(/src=(&quot;|")\/media\//);
    const feed = (await (await fetch(s.at('/feed.json'))).json()) as {
      items: { id: string; url: string; content_html?: string; image?: string }[];
    };
    const item = feed.items.find((i) => i.url.endsWith('/blog/proxyjump-over-bastions'))!;
    expect(item.content_html).toContain(`src="${url}"`);
    expect(item.content_html).toMatch(
      new RegExp(`srcset="${SITE.replace(/\./g, '\\.')}/media/[0-9a-f]{20}-480\\.webp 480w, ${SITE.replace(/\./g, '\\.')}/media/`),
    );
    expect(item.image).toBe(url);
  });

  it("gives a post's first raster image to the model (Post.image) for social cards", async () => {
    const model = JSON.parse(await readFile(join(s.out, '_folio/site.json'), 'utf8')) as { posts: { slug: string; image: unknown }[] };
    const png = await readFile('content/posts/img/proxyjump-session.png');
    expect(model.posts.find((p) => p.slug === 'proxyjump-over-bastions')!.image).toEqual({
      url: `${SITE}/media/${sha(png).slice(0, 20)}.png`,
      alt: expect.stringMatching(/^Diagram: the laptop opens an SSH session/),
      ...pngSize(png),
    });
    // Its first image is an SVG, which no link preview shows: the JPEG after it.
    expect(model.posts.find((p) => p.slug === 'retiring-pid-files')!.image).toMatchObject({
      url: expect.stringMatching(/\.jpg$/),
      alt: 'A wide photo of a blue wall',
      width: 2000,
      height: 1000,
    });
    // Its only image is an SVG.
    expect(model.posts.find((p) => p.slug === 'bounce-handling')!.image).toBeNull();
    expect(model.posts.find((p) => p.slug === 'dmarc-p-reject-rollout')!.image).toBeNull();
  });
});
