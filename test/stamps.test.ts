// Content files found by their stamp (content/load.ts, emit/stamps.ts): a
// build with a cache takes the record of a file whose device, inode, size and
// times have not moved since a build that saw it settled, without reading it
// (D56). A file changed since, even to the same size and modification time, or
// changed too recently to trust its times, is read; the output always equals a
// clean build's.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import { build } from '../build/emit/build.js';
import { codeFingerprint, recordKey } from '../build/emit/cache.js';
import { readContentFast } from '../build/emit/documents.js';
import { RecordCache } from '../build/emit/record-cache.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';
import { expectTakenUnread, removeRecords, stampsFile } from './helpers/stamps.js';

/** Longer than load.ts's SETTLE_MS: files last changed this long before a build carry a stamp. */
const SETTLE = 3_500;
const OLD_TIME = 1_700_000_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE));

let work: string;
let content: string;
let cache: string;
let out: string;

beforeAll(async () => {
  work = await tempDir('folio-stamps-');
  content = await copyContent();
  cache = join(work, '.folio-cache');
  out = join(work, 'dist');
  // A modification time of whole seconds, which utimes can give back exactly.
  await utimes(lastPost(), OLD_TIME, OLD_TIME);
  await settle();
  await build({ content, out, now: NOW, cache });
}, 120_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

/** The posts, projects and services: the files a build stamps. */
const stampable = () =>
  ['posts', 'projects', 'services'].reduce((n, f) => n + readdirSync(join(content, f)).filter((n) => n.endsWith('.md')).length, 0);
const posts = () =>
  readdirSync(join(content, 'posts'))
    .filter((n) => n.endsWith('.md'))
    .sort();
const firstPost = () => join(content, 'posts', posts()[0]!);
const lastPost = () => join(content, 'posts', posts().at(-1)!);

async function expectSameAsClean(): Promise<void> {
  const clean = join(work, `clean-${Date.now()}`);
  await cleanBuild({ content, out: clean, now: NOW });
  expect(await treeHash(out)).toEqual(await treeHash(clean));
  await rm(clean, { recursive: true, force: true });
}

describe('content files found by their stamp', () => {
  it('stamps the posts, projects and services that settled, and none that changed a moment ago', async () => {
    const lines = readFileSync(stampsFile(cache), 'utf8').split('\n');
    expect(lines[0]).toBe('folio-stamps 1');
    const files = lines.filter((_, i) => i % 4 === 2);
    for (const folder of ['posts', 'projects', 'services'])
      for (const name of readdirSync(join(content, folder)).filter((n) => n.endsWith('.md')))
        expect(files).toContain(relative(process.cwd(), join(content, folder, name)));

    const post = firstPost();
    await writeFile(post, `${await readFile(post, 'utf8')}\nA sentence written just now.\n`);
    const sources = await loadContent(content, { stamped: true });
    const fresh = sources.posts.find((s) => s.file.endsWith(post.slice(post.lastIndexOf('/'))))!;
    expect(fresh.stamp).toBeUndefined();
    expect(sources.posts.filter((s) => s.stamp !== undefined)).toHaveLength(sources.posts.length - 1);
    // What a build without a cache, or folio check and folio dev, load: read, never stamped.
    expect((await loadContent(content)).posts.every((s) => s.stamp === undefined)).toBe(true);
    await build({ content, out, now: NOW, cache });
    await expectSameAsClean();
  });

  it('takes the records of stamped files without reading them', async () => {
    await settle();
    await build({ content, out, now: NOW, cache });
    await expectTakenUnread(content, cache);
  });

  it('reads a file written again to the same size and modification time', async () => {
    const post = lastPost();
    const before = statSync(post);
    expect(before.mtimeMs).toBe(OLD_TIME * 1000);
    const text = await readFile(post, 'utf8');
    // A letter of the body (the last), changed for another.
    const changed = text.replace(/[a-y](?=[^a-y]*$)/, (c) => String.fromCharCode(c.charCodeAt(0) + 1));
    expect(changed).not.toBe(text);
    expect(Buffer.byteLength(changed)).toBe(before.size);
    await writeFile(post, changed);
    // As rsync -t or cp -p leave a copy: the old modification time. The change time moves all the same.
    await utimes(post, OLD_TIME, OLD_TIME);
    expect(statSync(post).mtimeMs).toBe(before.mtimeMs);
    await settle();
    const result = await build({ content, out, now: NOW, cache });
    expect(result.stats.rendered).toBe(1);
    await expectSameAsClean();
  }, 60_000);

  it('names the file and the fix when a stamped file is gone before its text is read', async () => {
    const sources = await loadContent(content, { stamped: true });
    const source = sources.posts[0]!;
    expect(source.stamp).toBeDefined();
    const path = join(content, 'posts', source.file.slice(source.file.lastIndexOf('/') + 1));
    const text = readFileSync(path, 'utf8');
    await rm(path);
    try {
      expect(() => source.text).toThrow(
        new RegExp(
          `${source.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be read after the content folder was listed .*Run the build again`,
        ),
      );
    } finally {
      writeFileSync(path, text);
    }
  });

  it('reads every file when the stamps file is not its own, or the records it names are gone, and writes it again', async () => {
    await settle();
    await build({ content, out, now: NOW, cache });
    writeFileSync(stampsFile(cache), 'folio-stamps 1\npost\nnot a path');
    let result = await build({ content, out, now: NOW, cache });
    expect(result.stats.rendered).toBe(0);
    expect(readFileSync(stampsFile(cache), 'utf8').split('\n')).toHaveLength(1 + 4 * stampable());
    await expectSameAsClean();

    // The stamps kept, the records gone: each is rendered again from its file.
    await removeRecords(cache);
    result = await build({ content, out, now: NOW, cache });
    expect(result.stats.rendered).toBe(result.stats.sources);
    await expectSameAsClean();
  }, 60_000);

  it('keeps a record under the key of the text it was made from when a file changes between its stat and its read', async () => {
    await settle();
    await build({ content, out, now: NOW, cache });
    // The records gone, the stamps kept: every record is made again, from the text as it is read.
    await removeRecords(cache);
    const sources = await loadContent(content, { stamped: true });
    const post = firstPost();
    const source = sources.posts.find((s) => s.file === relative(process.cwd(), post))!;
    expect(source.stamp).toBeDefined();
    // Written after the stat, before the read.
    await writeFile(post, `${await readFile(post, 'utf8')}\nWritten while the build ran.\n`);
    const records = await RecordCache.open(cache);
    await readContentFast(sources, { cache: records, workers: 0 });
    await records.save();
    const lines = readFileSync(stampsFile(cache), 'utf8').split('\n');
    const at = lines.indexOf(source.file);
    expect(lines[at + 2]).toBe(recordKey(codeFingerprint(), 'post', { file: source.file, text: source.text }));
    expect(source.text).toContain('Written while the build ran.');
  });

  it('leaves the stamps as they are after a run that stamped nothing (folio check, folio dev)', async () => {
    const before = readFileSync(stampsFile(cache), 'utf8');
    const records = await RecordCache.open(cache);
    await readContentFast(await loadContent(content), { cache: records, workers: 0 });
    await records.save();
    expect(existsSync(stampsFile(cache))).toBe(true);
    expect(readFileSync(stampsFile(cache), 'utf8')).toBe(before);
  });
});
