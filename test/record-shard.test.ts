// A shard file of the record cache (emit/record-shard.ts): a post's summary
// and Markdown, and posts' and projects' html and text, are kept after the
// records and read only when asked for; a record read back is the record written, property for
// property and in the same order, whatever happens to the file's name.
import {
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../build/content/kinds.js';
import { detach, fieldsRead, readShard, shardBytes, type Entries } from '../build/emit/record-shard.js';
import { RecordCache } from '../build/emit/record-cache.js';
import { tempDir } from './helpers/site.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('folio-record-shard-');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const post = (n: number): DocumentRecord =>
  ({
    kind: 'post',
    file: `posts/p${n}.md`,
    read: {
      value: {
        slug: `p${n}`,
        title: `Post ${n}`,
        summary: `What post ${n} — naïve café 🚀 — is about.`,
        content_markdown: `Body ${n} — naïve café 🚀`,
        text: `Body ${n} — naïve café 🚀 `.repeat(n + 1),
        html: `<p>Body ${n} — naïve café 🚀</p>`,
        image: null,
        extra: { n },
      },
      links: [],
      images: [],
    },
    problems: [],
  }) as unknown as DocumentRecord;

const records: Entries = [
  ['0a', post(0)],
  ['0b', post(1)],
  [
    '0c',
    {
      kind: 'project',
      file: 'projects/x.md',
      read: { value: { id: 'x', body_markdown: 'x', text: '', html: undefined, tags: [] }, links: [], images: [] },
      problems: [],
    } as unknown as DocumentRecord,
  ],
  [
    '0d',
    {
      kind: 'service',
      file: 'services/s.md',
      read: { value: { id: 's', body_markdown: 's', body_html: '<p>s</p>', text: 'kept inline' }, links: [], images: [] },
      problems: [],
    } as unknown as DocumentRecord,
  ],
  [
    '0e',
    {
      kind: 'post',
      file: 'posts/bad.md',
      read: null,
      problems: [{ file: 'posts/bad.md', line: 1, column: 1, message: 'm' }],
    } as unknown as DocumentRecord,
  ],
];

const valueOf = (entries: Entries, key: string) => entries.find(([k]) => k === key)![1].read!.value as Record<string, unknown>;
const isLazy = (value: Record<string, unknown>, name: string) => Object.getOwnPropertyDescriptor(value, name)!.get !== undefined;

function written(name: string, entries = records): string {
  const path = join(dir, name);
  writeFileSync(path, shardBytes(entries));
  return path;
}

describe('a record cache shard', () => {
  it('reads back every record as written, in the same order, posts’ bodies only when asked for', () => {
    const read = readShard(written('a.bin'));
    const first = valueOf(read, '0a');
    expect(isLazy(first, 'html')).toBe(true);
    expect(isLazy(first, 'text')).toBe(true);
    expect(isLazy(first, 'content_markdown')).toBe(true);
    expect(isLazy(first, 'summary')).toBe(true);
    expect(fieldsRead(first)).toEqual([]);
    // A service's fields, a project's Markdown and an unset project html stay in the records.
    expect(isLazy(valueOf(read, '0d'), 'text')).toBe(false);
    expect(isLazy(valueOf(read, '0c'), 'body_markdown')).toBe(false);
    expect(Object.getOwnPropertyDescriptor(valueOf(read, '0c'), 'html')).toEqual({
      value: undefined,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(first.title).toBe('Post 0');
    expect(fieldsRead(first)).toEqual([]);
    expect(JSON.stringify(read)).toBe(JSON.stringify(records));
    expect(fieldsRead(first)).toEqual(['summary', 'content_markdown', 'html', 'text']);
    expect(read).toEqual(records);
    // Read, a field keeps its accessor (the record keeps its shape) and is not read from the file again.
    expect(isLazy(first, 'html')).toBe(true);
    expect(Object.keys(first)).toEqual(Object.keys(valueOf(records, '0a')));
  });

  it('copies a record’s fields as they are: a copy reads its own body from the file', () => {
    const read = readShard(written('b.bin'));
    const value = valueOf(read, '0b');
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(value)) as Record<string, unknown>;
    expect(isLazy(copy, 'text')).toBe(true);
    expect(copy.text).toBe(valueOf(records, '0b').text);
    expect(isLazy(value, 'text')).toBe(true);
  });

  it('keeps reading its own bytes after a new file is renamed over its name', () => {
    const path = written('c.bin');
    const read = readShard(path);
    const other: Entries = [['0a', post(7)]];
    writeFileSync(`${path}.tmp`, shardBytes(other));
    renameSync(`${path}.tmp`, path);
    expect(valueOf(read, '0a').html).toBe(valueOf(records, '0a').html);
    expect(valueOf(read, '0b').text).toBe(valueOf(records, '0b').text);
    expect(valueOf(readShard(path), '0a').text).toBe(valueOf(other, '0a').text);
  });

  it('refuses a file cut short, or of no format, as a whole', () => {
    const path = written('d.bin');
    const size = readFileSync(path).byteLength;
    truncateSync(path, size - 1);
    expect(() => readShard(path)).toThrow(/not a whole shard file/);
    truncateSync(path, 2);
    expect(() => readShard(path)).toThrow(/cut short/);
    writeFileSync(path, 'not a shard');
    expect(() => readShard(path)).toThrow();
  });

  it('names the file and the fix when the text it lists is gone after it was opened', () => {
    const path = written('e.bin');
    const read = readShard(path);
    const text = valueOf(read, '0b').text;
    truncateSync(path, readFileSync(path).byteLength - 10);
    // Read before, a field is not read again; the other is gone.
    expect(valueOf(read, '0b').text).toBe(text);
    expect(() => valueOf(read, '0b').html).toThrow(
      `the record cache file ${path} ends before the text it lists; delete ${dir} and build again.`,
    );
  });

  it('detached, holds every field in memory and leaves the file closed', () => {
    const path = written('f.bin');
    const read = readShard(path);
    detach(read.map(([, r]) => r));
    unlinkSync(path);
    expect(read).toEqual(records);
  });

  it('in the record cache, reads the records of a shard before it is written again (no file is renamed over while open)', async () => {
    const cacheDir = await tempDir('folio-record-shard-compact-');
    try {
      const keys = Array.from({ length: 100 }, (_, n) => (n % 16).toString(16) + n.toString(16).padStart(63, '0'));
      const first = await RecordCache.open(cacheDir);
      keys.forEach((k, n) => first.set(k, post(n)));
      await first.save();
      // Every record read back lazily, then enough new ones that the shards are written again.
      const second = await RecordCache.open(cacheDir);
      const before = keys.map((k) => second.get(k)!);
      expect(Object.getOwnPropertyDescriptor(before[3]!.read!.value, 'html')?.get).toBeDefined();
      for (let n = 100; n < 200; n++) second.set((n % 16).toString(16) + n.toString(16).padStart(63, '0'), post(n));
      const shard = join(cacheDir, 'records-1', '3.bin');
      const inode = statSync(shard).ino;
      await second.save();
      expect(statSync(shard).ino).not.toBe(inode);
      // No descriptor of a replaced shard is left open (Linux shows them in /proc).
      if (existsSync('/proc/self/fd'))
        expect(
          readdirSync('/proc/self/fd')
            .map((fd) => {
              try {
                return readlinkSync(`/proc/self/fd/${fd}`);
              } catch {
                return '';
              }
            })
            .filter((target) => target.startsWith(cacheDir)),
        ).toEqual([]);
      for (const f of readdirSync(join(cacheDir, 'records-1')))
        if (/^[0-9a-f]\.bin$/.test(f)) truncateSync(join(cacheDir, 'records-1', f), 0);
      // The records read before still have their text, though their files are gone.
      before.forEach((r, n) => expect(r, keys[n]).toEqual(post(n)));
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('is a miss in the record cache when a shard cannot be read, and the other shards still hit', async () => {
    const cacheDir = await tempDir('folio-record-shard-cache-');
    try {
      // Enough records that the new cache is written as shards, not as a journal.
      const cache = await RecordCache.open(cacheDir);
      const keys = Array.from({ length: 100 }, (_, n) => (n % 16).toString(16) + n.toString(16).padStart(63, '0'));
      keys.forEach((k, n) => cache.set(k, post(n)));
      await cache.save();
      truncateSync(join(cacheDir, 'records-1', '0.bin'), 100);
      const again = await RecordCache.open(cacheDir);
      expect(again.get(keys[0]!)).toBeUndefined();
      expect(again.get(keys[16]!)).toBeUndefined();
      expect(again.get(keys[1]!)).toEqual(post(1));
      expect(again.get(keys[99]!)).toEqual(post(99));
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});
