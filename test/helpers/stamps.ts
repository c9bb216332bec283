// Shared by the tests of stamped content files (content/load.ts, emit/stamps.ts, content/git-index.ts).
import { readdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadContent } from '../../build/content/load.js';
import { readContentFast } from '../../build/emit/documents.js';
import { RecordCache } from '../../build/emit/record-cache.js';

/**
 * That the cache in `cache` gives the record of every file of `content`
 * without reading one: the posts are listed and stamped, then moved away, so
 * a read of any would fail.
 */
export async function expectTakenUnread(content: string, cache: string): Promise<void> {
  const sources = await loadContent(content, { stamped: true });
  expect(sources.posts.every((s) => s.stamp !== undefined)).toBe(true);
  const away = `${content}-posts`;
  await rename(join(content, 'posts'), away);
  try {
    const records = await RecordCache.open(cache);
    const { stats } = await readContentFast(sources, { cache: records, workers: 0 });
    expect(stats.rendered).toBe(0);
    expect(records.hits).toBe(stats.files);
  } finally {
    await rename(away, join(content, 'posts'));
  }
}

/** The record cache's folder in `cache` (records-<format>), found as the test finds any folio file: by listing. */
const recordsFolder = (cache: string) =>
  join(
    cache,
    readdirSync(cache).find((f) => f.startsWith('records-'))!,
  );

/** The file of the stamps the last build left in `cache`. */
export const stampsFile = (cache: string) => join(recordsFolder(cache), 'stamps.txt');

/** The records of `cache` removed, its stamps kept: the next build makes every record again, from the text as it reads it. */
export async function removeRecords(cache: string): Promise<void> {
  const folder = recordsFolder(cache);
  for (const f of readdirSync(folder)) if (/^[0-9a-f]\.bin$|^journal\.bin$/.test(f)) await rm(join(folder, f));
}
