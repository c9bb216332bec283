// Incremental builds as the build clock moves on (D40, D56): from a first full build, a rebuild without
// changes asks for nothing; later the same day only the files naming the build change; a new day asks
// again for the responses that showed the day, a new year for all; each output equals a clean build's.
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerOf } from '../build/emit/incremental.js';
import { incrementalSite, SLOW } from './helpers/incremental.js';
import { NOW } from './helpers/site.js';

const s = incrementalSite('folio-incremental-clock-', { built: false });

describe('incremental builds', () => {
  it('starts from a full build, and a rebuild without changes asks for nothing and writes nothing', SLOW, async () => {
    const first = await s.incremental();
    expect(first.stats.full).toBe('no previous build');
    expect(first.stats.asked).toBe(first.stats.targets);
    const again = await s.incremental();
    expect(again.stats.full).toBeNull();
    expect(again.stats.rendered).toBe(0);
    expect(again.stats.asked).toBe(0);
    expect(again.stats.written).toEqual([]);
    expect(again.files).toBe(first.files);
    expect(again.bytes).toBe(first.bytes);
    await s.expectSameAsClean();
  });

  it('later the same day, asks for no response: only the model and the files naming the build take the new clock', SLOW, async () => {
    await s.incremental();
    const noon = new Date(NOW.getTime() + 12.5 * 3600_000);
    const r = await s.incremental(noon);
    expect(r.stats.full).toBeNull();
    expect(r.stats.asked).toBe(0);
    // The model for the functions shows the whole clock, the manifest and the edge head the build id made with it.
    expect(r.stats.written.sort()).toEqual(['_folio/edge/head.json', '_folio/manifest.json', '_folio/site.json']);
    expect(JSON.parse(await readFile(join(s.out, '_folio/site.json'), 'utf8')).built_at).toBe(noon.toISOString());
    await s.expectSameAsClean(noon);

    // A body edit in the evening: the post's own responses and the documents showing bodies, as on any edit.
    await appendFile(join(s.content, 'posts/bounce-handling.md'), '\nA paragraph added in the evening.\n');
    const evening = new Date(NOW.getTime() + 23 * 3600_000);
    const edited = await s.incremental(evening);
    expect(edited.stats.full).toBeNull();
    expect(edited.stats.asked).toBe(6);
    await s.expectSameAsClean(evening);
  });

  it('on a new day, asks for the responses that showed the day; in a new year, for all', SLOW, async () => {
    const first = await s.incremental();
    const tomorrow = new Date(NOW.getTime() + 25 * 3600_000);
    const r = await s.incremental(tomorrow);
    expect(r.stats.full).toBeNull();
    // Exactly those the previous build recorded reading the day: availability, and the pages and documents showing it.
    const dated = [...first.state.clock!.keys()];
    expect(r.stats.asked).toBe(dated.length);
    expect(dated).toEqual(expect.arrayContaining(['/api/v1/availability', '/about', '/about.md', '/sitemap.xml', '/llms-full.txt']));
    // Posts' own responses show the year only.
    expect(dated.filter((t) => ownerOf(t) !== null)).toEqual([]);
    expect(r.stats.written.filter((f) => /^(blog\/[^/]+\.(html|md)|api\/v1\/posts\/[^/]+\.json)$/.test(f))).toEqual([]);
    expect(r.stats.written).toContain('api/v1/availability.json');
    // llms.txt and llms-full.txt show the about page: their frames, and the sections of the pages whose twins showed
    // the day, are made again; the posts' sections are kept.
    expect(r.stats.spliced.sort()).toEqual(['/llms-full.txt', '/llms.txt']);
    expect(r.files).toBe(first.files);
    await s.expectSameAsClean(tomorrow);

    // Days on which the about and home pages change too (the availability they sum up moves on).
    for (const day of ['2026-11-26T09:00:00Z', '2026-11-27T09:30:00Z']) {
      const at = new Date(day);
      expect((await s.incremental(at)).stats.full).toBeNull();
      await s.expectSameAsClean(at);
    }

    const nextYear = new Date('2027-01-02T08:00:00Z');
    expect((await s.incremental(nextYear)).stats.full).toMatch(/year of the build clock/);
    await s.expectSameAsClean(nextYear);
    await s.incremental();
  });
});
