// D44 the image cache, through in-process builds of a copy of the sample: a
// rebuild with an image unchanged does no image work, a changed image is
// processed again, and the cache keeps only the images the last build used.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { copyContent, NOW, tempDir } from './helpers/site.js';

/** Each file under an output's media/, by name, as a hash of its bytes. */
async function mediaOf(out: string): Promise<Record<string, string>> {
  const files = (await readdir(join(out, 'media'))).sort();
  expect(files.length).toBeGreaterThan(0);
  const hashes = await Promise.all(
    files.map(async (f) =>
      createHash('sha256')
        .update(await readFile(join(out, 'media', f)))
        .digest('hex'),
    ),
  );
  return Object.fromEntries(files.map((f, i) => [f, hashes[i]!]));
}

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
    // The cache gives exactly what processing gave: a build into a fresh output, with no previous
    // output to take files from, processes nothing and writes the first build's bytes.
    const fresh = await build({ ...options, out: join(root, 'fresh') });
    expect(fresh.stats.imagesProcessed).toBe(0);
    expect(await mediaOf(join(root, 'fresh'))).toEqual(await mediaOf(join(root, 'dist')));
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
