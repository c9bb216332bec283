// D45 the profile photo, through a real build and `folio serve` on 127.0.0.1:
// on the home and about pages with its alt text and size, photo_url and
// photo_alt in the API, the twins and MCP, and null when the profile names none.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { attr } from './helpers/html.js';
import { pngSize, servedImageSample, sha, SITE } from './helpers/images.js';
import { copyContent, NOW, tempDir } from './helpers/site.js';

const s = servedImageSample();
const { page } = s;

describe('the profile photo (D45)', () => {
  const photoUrl = () => `${SITE}/media/${sha(s.photoBytes).slice(0, 20)}.png`;

  it('is on the home and about pages, with its alt text and size', async () => {
    for (const path of ['/', '/about']) {
      const photo = (await page(path)).find((i) => attr(i, 'class') === 'photo');
      expect(photo, path).toBeDefined();
      expect(attr(photo!, 'src')).toBe(new URL(photoUrl()).pathname);
      expect(attr(photo!, 'alt')).toMatch(/^Illustration of Hanna Brink/);
      expect([attr(photo!, 'width'), attr(photo!, 'height')]).toEqual(Object.values(pngSize(s.photoBytes)).map(String));
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
