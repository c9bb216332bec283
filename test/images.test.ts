// D44 images in content and D45 the profile photo, through a real build and
// `folio serve` on 127.0.0.1: fingerprinted originals under /media/ with
// immutable caching, WebP variants in srcset, sizes on every <img>, SVG's
// policy, absolute addresses in the twins, API, feeds and llms-full.txt, the
// photo in the API and MCP, and the cache that makes an unchanged image free.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { attr, byTag, parseHtml, textOf, type Element } from './helpers/html.js';
import { copyContent, NOW, serveBuilt, tempDir } from './helpers/site.js';

const SITE = 'https://hannabrink.example';
let content: string;
let s: Awaited<ReturnType<typeof serveBuilt>>;
let photoBytes: Buffer;

/** Width and height from a PNG's IHDR chunk, read without any image library. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  content = await copyContent();
  // A large JPEG (three variants), an SVG from static/ by a / path, the sample's PNG named
  // from a second post (one file), and a reference-style image.
  await mkdir(join(content, 'static/diagrams'), { recursive: true });
  await writeFile(
    join(content, 'static/diagrams/flow.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120"><rect width="300" height="120" fill="#eef"/><script>alert(1)</script></svg>',
  );
  await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toFile(join(content, 'posts/wide.jpg'));
  const post = join(content, 'posts/retiring-pid-files.md');
  await writeFile(
    post,
    `${(await readFile(post, 'utf8')).trimEnd()}\n\n![Flow of a PID file](/diagrams/flow.svg)\n\n![A wide photo of a blue wall](./wide.jpg "Blue")\n\n![The ProxyJump session again](./img/proxyjump-session.png)\n\n![The pipeline][pipeline]\n\n[pipeline]: ./img/affected-pipeline.svg\n`,
  );
  photoBytes = await readFile(join(content, 'images/hanna-brink-illustration.png'));
  s = await serveBuilt(content);
}, 120_000);
afterAll(async () => {
  await s?.close();
  await rm(content, { recursive: true, force: true });
});

async function page(path: string): Promise<Element[]> {
  const res = await fetch(s.at(path));
  expect(res.status).toBe(200);
  return byTag(parseHtml(await res.text()), 'img');
}

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
    const svg = await readFile(join(content, 'static/diagrams/flow.svg'));
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
    const svg = await readFile(join(content, 'static/diagrams/flow.svg'));
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
    const photo = `${SITE}/media/${sha(photoBytes).slice(0, 20)}.png`;
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

describe('the profile photo (D45)', () => {
  const photoUrl = () => `${SITE}/media/${sha(photoBytes).slice(0, 20)}.png`;

  it('is on the home and about pages, with its alt text and size', async () => {
    for (const path of ['/', '/about']) {
      const photo = (await page(path)).find((i) => attr(i, 'class') === 'photo');
      expect(photo, path).toBeDefined();
      expect(attr(photo!, 'src')).toBe(new URL(photoUrl()).pathname);
      expect(attr(photo!, 'alt')).toMatch(/^Illustration of Hanna Brink/);
      expect([attr(photo!, 'width'), attr(photo!, 'height')]).toEqual(Object.values(pngSize(photoBytes)).map(String));
    }
  });

  it('is photo_url and photo_alt in GET /api/v1/profile and in the twins', async () => {
    const profile = (await (await fetch(s.at('/api/v1/profile'))).json()) as { photo_url: string; photo_alt: string };
    expect(profile.photo_url).toBe(photoUrl());
    expect(profile.photo_alt).toMatch(/^Illustration of Hanna Brink/);
    expect(await (await fetch(s.at('/about.md'))).text()).toContain(`](${photoUrl()})`);
  });

  it('is photo_url in site_get_profile, through the official MCP client', async () => {
    const client = new Client({ name: 'folio-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', s.url)));
    try {
      const result = await client.callTool({ name: 'site_get_profile', arguments: {} });
      expect((result.structuredContent as { photo_url: string }).photo_url).toBe(photoUrl());
    } finally {
      await client.close();
    }
  });

  it('is null in the API when the profile names no photo', async () => {
    const dir = await copyContent();
    const file = join(dir, 'profile.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^photo(_alt)?:.*\n/gm, ''));
    const out = join(await tempDir(), 'dist');
    const result = await build({ content: dir, out, now: NOW });
    expect(result.site.profile.photo_url).toBeNull();
    expect(result.site.profile.photo_alt).toBeNull();
    expect(await readFile(join(out, 'index.html'), 'utf8')).not.toContain('class="photo"');
    await rm(dir, { recursive: true, force: true });
    await rm(join(out, '..'), { recursive: true, force: true });
  });
});

describe('the image cache (D44)', () => {
  it('processes an image once: a rebuild with it unchanged runs no image work; a changed image is processed again', async () => {
    const dir = await copyContent();
    const root = await tempDir();
    const options = { content: dir, out: join(root, 'dist'), now: NOW, cache: join(root, 'cache') };
    const first = await build(options);
    expect(first.stats.images).toBe(4);
    expect(first.stats.imagesProcessed).toBe(4);
    const second = await build(options);
    expect(second.stats.imagesProcessed).toBe(0);
    expect(second.stats.written.filter((f) => f.startsWith('media/'))).toEqual([]);
    // Same bytes as the first build: the cache gives exactly what processing gave.
    for (const f of await readdir(join(root, 'dist/media')))
      expect((await readFile(join(root, 'dist/media', f))).length).toBeGreaterThan(0);
    await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#aa3366' } })
      .png()
      .toFile(join(dir, 'posts/img/proxyjump-session.png'));
    const third = await build(options);
    expect(third.stats.imagesProcessed).toBe(1);
    expect(third.stats.written.filter((f) => f.startsWith('media/')).sort()).toEqual(
      [expect.stringMatching(/-480\.webp$/), expect.stringMatching(/-960\.webp$/), expect.stringMatching(/\.png$/)].sort(),
    );
    expect(third.site.posts.find((p) => p.slug === 'proxyjump-over-bastions')!.image).toMatchObject({ width: 1000, height: 500 });
    await rm(dir, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });

  it('keeps in its cache only the images the last build used: a replaced or removed image leaves it', async () => {
    const dir = await copyContent();
    const root = await tempDir();
    const cache = join(root, 'cache');
    const options = { content: dir, out: join(root, 'dist'), now: NOW, cache };
    /** The image cache's files, and the image paths its index names. */
    const cached = async () => {
      const [folder] = (await readdir(cache)).filter((n) => n.startsWith('images-'));
      const files = (await readdir(join(cache, folder!))).filter((n) => n !== 'index.json').sort();
      const index = JSON.parse(await readFile(join(cache, folder!, 'index.json'), 'utf8')) as Record<string, unknown>;
      return {
        files,
        paths: Object.keys(index)
          .map((p) => p.split('/').pop())
          .sort(),
      };
    };
    const png = join(dir, 'posts/img/proxyjump-session.png');
    const hashOf = async () =>
      createHash('sha256')
        .update(await readFile(png))
        .digest('hex')
        .slice(0, 20);
    await build(options);
    const before = await hashOf();
    const first = await cached();
    expect(first.files.filter((f) => f.startsWith(before))).toHaveLength(4);
    // Replaced: the new bytes are processed and the old image's files go.
    await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#aa3366' } })
      .png()
      .toFile(png);
    await build(options);
    const after = await hashOf();
    const second = await cached();
    expect(second.files.filter((f) => f.startsWith(before))).toEqual([]);
    expect(second.files.filter((f) => f.startsWith(after)).length).toBeGreaterThan(0);
    expect(second.files.length).toBe(first.files.length - 4 + second.files.filter((f) => f.startsWith(after)).length);
    // No longer shown: its files and its path leave the cache; the other images stay.
    const post = join(dir, 'posts/proxyjump-over-bastions.md');
    await writeFile(post, (await readFile(post, 'utf8')).replace(/^!\[Diagram: the laptop.*\]\(\.\/img\/proxyjump-session\.png\)$/m, ''));
    await build(options);
    const third = await cached();
    expect(third.files.filter((f) => f.startsWith(after))).toEqual([]);
    expect(third.paths).not.toContain('proxyjump-session.png');
    expect(third.files).toEqual(second.files.filter((f) => !f.startsWith(after)));
    await rm(dir, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });
});
