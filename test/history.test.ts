// The build's record of what it published (D61, build/history.ts): written
// again only when it holds something new, and read back as it was written.
import { appendFile, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { historyFile, loadHistory } from '../build/emit/cache.js';
import { sameHistory, type History } from '../build/history.js';
import { copyContent, NOW, tempDir } from './helpers/site.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const record = (): History => ({
  format: 1,
  since: '2026-01-01',
  items: {
    'post:a': {
      type: 'post',
      id: 'a',
      title: 'A',
      api_url: 'https://x.example/api/v1/posts/a',
      first_seen: '2026-01-02',
      hash: 'h',
      changed: null,
    },
    'service:s': {
      type: 'service',
      id: 's',
      title: 'S',
      api_url: 'https://x.example/api/v1/services/s',
      first_seen: null,
      hash: 'k',
      changed: '2026-02-01',
    },
  },
  removed: {
    'post:b': { type: 'post', id: 'b', title: 'B', change: 'removed', date: '2026-03-01', api_url: 'https://x.example/api/v1/posts/b' },
  },
});

describe('the record of what a build published', () => {
  it('is the same as its JSON, a missing field and an undefined one alike, and differs by any field, item or removal', () => {
    const a = record();
    expect(sameHistory(a, JSON.parse(JSON.stringify(a)) as History)).toBe(true);
    const undefinedField = record();
    (undefinedField.items['post:a'] as unknown as Record<string, unknown>).extra = undefined;
    expect(sameHistory(JSON.parse(JSON.stringify(a)) as History, undefinedField)).toBe(true);
    const changes: ((h: History) => void)[] = [
      (h) => (h.since = '2026-01-02'),
      (h) => (h.items['post:a']!.hash = 'other'),
      (h) => (h.items['service:s']!.changed = null),
      (h) => delete h.items['post:a'],
      (h) => (h.items['post:c'] = { ...h.items['post:a']!, id: 'c' }),
      (h) => (h.removed = {}),
      (h) => (h.removed['post:b']!.date = '2026-03-02'),
    ];
    for (const change of changes) {
      const next = record();
      change(next);
      expect(sameHistory(a, next)).toBe(false);
      expect(sameHistory(next, a)).toBe(false);
    }
    expect(sameHistory(null, a)).toBe(false);
  });

  it('is not written again by a build that publishes nothing new, and is by one that does', async () => {
    const content = await copyContent();
    const work = await tempDir('folio-history-');
    dirs.push(content, work);
    const out = join(work, 'dist');
    const cache = join(work, 'cache');
    await build({ content, out, now: NOW, cache });
    const file = historyFile(cache, out);
    const first = await stat(file);
    const text = await readFile(file, 'utf8');
    // A body edit of a post: its record (its dates) is the same.
    await appendFile(join(content, 'posts', 'short-lived-ssh-certificates.md'), '\n\nOne more sentence.\n');
    await build({ content, out, now: NOW, cache });
    expect((await stat(file)).mtimeMs).toBe(first.mtimeMs);
    expect(await readFile(file, 'utf8')).toBe(text);
    // A service edited: its record changes, and the file is written.
    const service = join(content, 'services', (await readdir(join(content, 'services')))[0]!);
    await appendFile(service, '\n\nA new paragraph.\n');
    await build({ content, out, now: NOW, cache });
    expect(await readFile(file, 'utf8')).not.toBe(text);
    expect(sameHistory(loadHistory(cache, out), JSON.parse(await readFile(file, 'utf8')) as History)).toBe(true);
  });
});
