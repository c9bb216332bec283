// The record cache's files (emit/record-cache.ts): an edit adds its records
// to a journal and leaves the shards as they were; once the journal and the
// records no build uses grow past a share of the cache, the shards are
// written again with only the records in use, and the journal goes.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../build/content/kinds.js';
import { RecordCache } from '../build/emit/record-cache.js';
import { tempDir } from './helpers/site.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A key as recordKey makes them (64 hex digits; the first picks the shard), and a record that names it. */
const key = (n: number) =>
  n
    .toString(16)
    .padStart(64, '0')
    .replace(/^./, (n % 16).toString(16));
const record = (n: number, version = 0) =>
  ({ kind: 'post', file: `posts/${n}.md`, read: { version }, problems: [] }) as unknown as DocumentRecord;

async function fresh(count: number): Promise<{ dir: string; folder: string }> {
  const dir = await tempDir('folio-record-cache-');
  dirs.push(dir);
  const cache = await RecordCache.open(dir);
  for (let n = 0; n < count; n++) {
    expect(cache.get(key(n))).toBeUndefined();
    cache.set(key(n), record(n));
  }
  await cache.save();
  return {
    dir,
    folder: join(
      dir,
      readdirSync(dir).find((f) => f.startsWith('records-'))!,
    ),
  };
}

/** A build that uses every record but `edited`'s, whose text changed: its new record under a new key. */
async function edit(dir: string, count: number, edited: number, version: number): Promise<RecordCache> {
  const cache = await RecordCache.open(dir);
  for (let n = 0; n < count; n++) if (n !== edited) expect(cache.get(key(n))).toEqual(record(n));
  const fresh = key(1_000_000 + version);
  expect(cache.get(fresh)).toBeUndefined();
  cache.set(fresh, record(edited, version));
  await cache.save();
  return cache;
}

/** Each shard file and its inode: a shard written again is a new file renamed over the old one. */
const shardFiles = (folder: string) =>
  Object.fromEntries(
    readdirSync(folder)
      .filter((f) => /^[0-9a-f]\.bin$/.test(f))
      .map((f) => [f, statSync(join(folder, f)).ino]),
  );

describe('the record cache', () => {
  it('writes every shard when it is new, and no journal', async () => {
    const { dir, folder } = await fresh(320);
    expect(Object.keys(shardFiles(folder))).toHaveLength(16);
    expect(existsSync(join(folder, 'journal.bin'))).toBe(false);
    const again = await RecordCache.open(dir);
    for (let n = 0; n < 320; n++) expect(again.get(key(n))).toEqual(record(n));
    expect(again.hits).toBe(320);
  });

  it('puts an edit in the journal, leaves the shards, and reads it back', async () => {
    const { dir, folder } = await fresh(320);
    const shards = shardFiles(folder);
    await edit(dir, 320, 7, 1);
    expect(existsSync(join(folder, 'journal.bin'))).toBe(true);
    expect(shardFiles(folder)).toEqual(shards);
    const again = await RecordCache.open(dir);
    expect(again.get(key(1_000_001))).toEqual(record(7, 1));
    // A second edit of the same file: its first new record is no longer used and leaves the journal.
    await edit(dir, 320, 7, 2);
    const third = await RecordCache.open(dir);
    expect(third.get(key(1_000_002))).toEqual(record(7, 2));
    expect(third.get(key(1_000_001))).toBeUndefined();
    expect(shardFiles(folder)).toEqual(shards);
  });

  it('writes the shards again with only the records in use once the journal and the unused pass a share of the cache', async () => {
    const { dir, folder } = await fresh(100);
    // Each edit gives one file a new record: one more in the journal, one more unused in a shard.
    const live = new Map(Array.from({ length: 100 }, (_, n) => [n, key(n)]));
    const versions = new Map<number, number>();
    let edits = 0;
    let shards = shardFiles(folder);
    for (; edits < 100; edits++) {
      const file = (edits * 7) % 100;
      const version = (versions.get(file) ?? 0) + 1;
      versions.set(file, version);
      live.set(file, key(1_000_000 + edits));
      const cache = await RecordCache.open(dir);
      for (const [n, k] of live) if (!cache.get(k)) cache.set(k, record(n, versions.get(n) ?? 0));
      await cache.save();
      if (!existsSync(join(folder, 'journal.bin'))) break;
      expect(shardFiles(folder), `edit ${edits}`).toEqual(shards);
      shards = shardFiles(folder);
    }
    // Each edit adds one record to the journal and leaves one unused: past 64 (the least share) at the 33rd edit, numbered 32.
    expect(edits).toBe(32);
    expect(shardFiles(folder)).not.toEqual(shards);
    const cache = await RecordCache.open(dir);
    for (const [n, k] of live) expect(cache.get(k), `file ${n}`).toEqual(record(n, versions.get(n) ?? 0));
    expect(cache.get(key(0))).toBeUndefined();
  });

  it('starts a journal it cannot read empty: those records miss, the rest hit', async () => {
    const { dir, folder } = await fresh(320);
    await edit(dir, 320, 7, 1);
    writeFileSync(join(folder, 'journal.bin'), 'not a journal');
    const cache = await RecordCache.open(dir);
    expect(cache.get(key(1_000_001))).toBeUndefined();
    expect(cache.get(key(8))).toEqual(record(8));
    expect(readFileSync(join(folder, 'FINGERPRINT'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
  });
});
