// What the tests of images in posts, the profile photo and social cards share
// (D44, D45, D50): the sample with more images in its posts, built and served
// by a real `folio serve` on 127.0.0.1 for the file's tests, and the readers
// of image hashes, PNG sizes and a page's <img> elements.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect } from 'vitest';
import { byTag, parseHtml, type Element } from './html.js';
import { copyContent, serveBuilt } from './site.js';

export const SITE = 'https://hannabrink.example';

/** Width and height from a PNG's IHDR chunk, read without any image library. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export type ImageSample = Awaited<ReturnType<typeof serveBuilt>> & {
  /** The edited copy of content/ that was built (`content` is the build's own record of it). */
  contentDir: string;
  /** The bytes of the profile photo. */
  photoBytes: Buffer;
  /** The <img> elements of a page, which must answer 200. */
  page(path: string): Promise<Element[]>;
};

/** The sample with more images, built and served before the file's tests and stopped after them; its fields are set once beforeAll has run. */
export function servedImageSample(): ImageSample {
  const s = {
    async page(path: string): Promise<Element[]> {
      const res = await fetch(s.at(path));
      expect(res.status).toBe(200);
      return byTag(parseHtml(await res.text()), 'img');
    },
  } as ImageSample;
  beforeAll(async () => {
    const content = await copyContent();
    s.contentDir = content;
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
    s.photoBytes = await readFile(join(content, 'images/hanna-brink-illustration.png'));
    Object.assign(s, await serveBuilt(content));
  }, 120_000);
  afterAll(async () => {
    await s.close?.();
    if (s.contentDir) await rm(s.contentDir, { recursive: true, force: true });
  });
  return s;
}
