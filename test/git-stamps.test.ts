// Content files known by the blob git's index names for them (content/git-index.ts,
// D56): a fresh checkout, as a CI job makes, takes the records of the files the
// last build saw without reading them, though every file is new to the file
// system. Checked against git itself (`git ls-files --debug` lists what the
// index holds) and through real clones; a file git would not trust unread is
// read, and the output always equals a clean build's.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitIndex, parseIndex } from '../build/content/git-index.js';
import { loadContent } from '../build/content/load.js';
import { build } from '../build/emit/build.js';
import { readContentFast } from '../build/emit/documents.js';
import { RecordCache } from '../build/emit/record-cache.js';
import { cleanBuild, NOW, tempDir, treeHash } from './helpers/site.js';
import { expectTakenUnread, removeRecords, stampsFile } from './helpers/stamps.js';

/**
 * Sets a file's modification time to the nanosecond. Node's utimes takes
 * seconds as a double, which at today's times is some 240 ns coarse, and so
 * may land either side of a time it is given; GNU touch sets it exactly.
 */
const setModified = (path: string, ns: bigint) =>
  execFileSync('touch', ['-m', '-d', `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`, path]);

/** Longer than load.ts's SETTLE_MS: files last changed this long before a build carry a stamp. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 3_500));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=folio test', ...args], { cwd, encoding: 'utf8' });

let work: string;
let origin: string;
/** The clone every build reads, made afresh at the same path as a CI job's checkout is. */
let site: string;
let content: string;
let cache: string;
let out: string;

/**
 * A clone made afresh at `at`, settled. Its files written in the same tick of
 * the clock as its index are racy to git, which then reads them: refreshed
 * after the settle, the index vouches for every one of them, as the tests
 * below expect.
 */
async function cloneAt(at: string): Promise<void> {
  await rm(at, { recursive: true, force: true });
  git(work, 'clone', '--quiet', origin, at);
  await settle();
  git(at, 'update-index', '-q', '--really-refresh');
}

const checkout = () => cloneAt(site);

async function expectSameAsClean(): Promise<void> {
  const clean = join(work, `clean-${Date.now()}`);
  await cleanBuild({ content, out: clean, now: NOW });
  expect(await treeHash(out)).toEqual(await treeHash(clean));
  await rm(clean, { recursive: true, force: true });
}

/** The content file a source was read from, from the site's root (as git names it). */
const inSite = (source: { file: string }) => relative(site, resolve(source.file));

const stampsText = () => readFileSync(stampsFile(cache), 'utf8');

/** The stamp each post of the content folder gets now. */
async function postStamps(): Promise<(string | undefined)[]> {
  return (await loadContent(content, { stamped: true })).posts.map((s) => s.stamp);
}

beforeAll(async () => {
  work = await tempDir('folio-git-');
  origin = join(work, 'origin');
  site = join(work, 'site');
  content = join(site, 'content');
  cache = join(work, '.folio-cache');
  out = join(work, 'dist');
  cpSync('content', join(origin, 'content'), { recursive: true });
  git(work, 'init', '--quiet', origin);
  git(origin, 'add', '-A');
  git(origin, 'commit', '--quiet', '-m', 'The sample site');
  await checkout();
  await build({ content, out, now: NOW, cache });
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('the git index', () => {
  it('holds, for each regular file, the blob and stat git lists, in index versions 2, 3 and 4', () => {
    const skipped = 'content/profile.md';
    for (const version of ['2', '3', '4']) {
      git(site, 'update-index', '--index-version', version);
      // An extended flag (index version 3 and up): git does not look at the file, so neither do we.
      if (version !== '2') git(site, 'update-index', '--skip-worktree', skipped);
      const parsed = parseIndex(readFileSync(join(site, '.git', 'index')))!;
      expect(parsed, `index version ${version}`).not.toBeNull();
      const listed = git(site, 'ls-files', '--stage', '--debug').split('\n');
      let files = 0;
      for (let i = 0; i < listed.length; i++) {
        const entry = /^100644 ([0-9a-f]{40}) 0\t(.+)$/.exec(listed[i]!);
        if (!entry) continue;
        const [, blob, path] = entry;
        const at = parsed.at.get(path!);
        if (version !== '2' && path === skipped) {
          expect(at).toBeUndefined();
          continue;
        }
        expect(at, path).toBeDefined();
        // ctime, mtime, dev and ino, uid and gid, size: the lines git prints after each entry.
        const numbers = listed
          .slice(i + 1, i + 6)
          .join(' ')
          .match(/\d+/g)!
          .map(Number);
        const [cs, cns, ms, mns, dev, ino, uid, gid, size] = numbers;
        const field = (n: number) => parsed.bytes.readUInt32BE(at! + 4 * n);
        expect([0, 1, 2, 3, 4, 5, 7, 8, 9].map(field), path).toEqual([cs, cns, ms, mns, dev, ino, uid, gid, size]);
        expect(parsed.bytes.toString('hex', at! + 40, at! + 60)).toBe(blob);
        files++;
      }
      expect(files).toBeGreaterThan(30);
      if (version !== '2') git(site, 'update-index', '--no-skip-worktree', skipped);
    }
    git(site, 'update-index', '--index-version', '2');
  });

  it('is found through a .git file that names the git folder, as a worktree has', async () => {
    const tree = join(work, 'worktree');
    git(site, 'worktree', 'add', '--quiet', tree);
    try {
      expect(readFileSync(join(tree, '.git'), 'utf8')).toMatch(/^gitdir: /);
      await settle();
      git(tree, 'update-index', '-q', '--really-refresh');
      const file = join(tree, 'content', 'profile.md');
      const blob = git(tree, 'rev-parse', 'HEAD:content/profile.md').trim();
      expect(GitIndex.of(join(tree, 'content'))?.stampOf(file, statSync(file, { bigint: true }))).toBe(
        `git:${blob}:${statSync(file).size}`,
      );
    } finally {
      git(site, 'worktree', 'remove', '--force', tree);
    }
  }, 30_000);

  it('is not read when over 8 MiB, as a monorepo of some 100,000 files has, though it is a valid index', async () => {
    const repo = join(work, 'monorepo');
    cpSync(join(site, 'content'), join(repo, 'content'), { recursive: true });
    git(repo, 'init', '--quiet');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'content');
    expect(GitIndex.of(join(repo, 'content'))).not.toBeNull();
    // 100,000 more entries, every one naming the profile's blob: the index git itself writes for such a tree.
    const blob = git(repo, 'rev-parse', 'HEAD:content/profile.md').trim();
    const lines = Array.from(
      { length: 100_000 },
      (_, i) => `100644 ${blob} 0\tvendor/package-${String(i).padStart(6, '0')}/lib/index.js\n`,
    );
    execFileSync('git', ['update-index', '--index-info'], { cwd: repo, input: lines.join('') });
    const index = readFileSync(join(repo, '.git', 'index'));
    expect(index.byteLength).toBeGreaterThan(8 * 2 ** 20);
    expect(parseIndex(index)?.at.has('content/profile.md')).toBe(true);
    expect(GitIndex.of(join(repo, 'content'))).toBeNull();
  }, 30_000);

  it('is no index when its checksum fails, or it is not one', () => {
    const bytes = readFileSync(join(site, '.git', 'index'));
    expect(parseIndex(bytes)).not.toBeNull();
    const changed = Buffer.from(bytes);
    changed[100] = changed[100]! ^ 1;
    expect(parseIndex(changed)).toBeNull();
    expect(parseIndex(Buffer.from('DIRC not an index at all, but long enough'))).toBeNull();
    expect(parseIndex(Buffer.alloc(0))).toBeNull();
  });
});

describe('content files known by their blob', () => {
  it('takes every record in a fresh checkout without reading a file, and builds what a clean build does', async () => {
    await checkout();
    const stamps = await postStamps();
    expect(stamps.every((s) => s?.startsWith('git:'))).toBe(true);
    // The blob of a post, as git names it.
    const first = (await loadContent(content, { stamped: true })).posts[0]!;
    const blob = git(site, 'rev-parse', `HEAD:${inSite(first)}`).trim();
    expect(first.stamp).toBe(`git:${blob}:${statSync(join(site, inSite(first))).size}`);

    await expectTakenUnread(content, cache);
    const result = await build({ content, out, now: NOW, cache });
    expect(result.stats.rendered).toBe(0);
    expect(stampsText()).toContain('\ngit:');
    await expectSameAsClean();
  }, 60_000);

  it('reads a file changed since the checkout, and one committed since the last build', async () => {
    await checkout();
    const [first, second] = (await loadContent(content, { stamped: true })).posts.map(inSite);
    await appendFile(join(site, first!), '\nA sentence written after the checkout.\n');
    const edited = readFileSync(join(site, first!), 'utf8');
    await settle();
    let result = await build({ content, out, now: NOW, cache });
    expect(result.stats.rendered).toBe(1);
    const stamps = await postStamps();
    expect(stamps[0]).toBeDefined();
    expect(stamps[0]).not.toMatch(/^git:/);
    await expectSameAsClean();

    // That edit committed in the origin with another post's, then checked out afresh: the first post, a new blob,
    // is read and found to be the text the last build rendered; the second is rendered; the others are known.
    writeFileSync(join(origin, first!), edited);
    writeFileSync(join(origin, second!), `${readFileSync(join(origin, second!), 'utf8')}\nA sentence committed later.\n`);
    git(origin, 'commit', '--quiet', '-am', 'Two posts edited');
    await checkout();
    result = await build({ content, out, now: NOW, cache });
    expect(result.stats.rendered).toBe(1);
    expect((await postStamps()).every((s) => s?.startsWith('git:'))).toBe(true);
    await expectSameAsClean();
  }, 90_000);

  it('does not learn a blob by the text of a file written again between its stat and its read', async () => {
    await checkout();
    await build({ content, out, now: NOW, cache });
    // The records gone, the stamps kept: every record is made again, from the text as it is read.
    await removeRecords(cache);
    const sources = await loadContent(content, { stamped: true });
    const source = sources.posts[0]!;
    expect(source.stamp).toMatch(/^git:/);
    // Written after the stat, before the read.
    await appendFile(resolve(source.file), '\nWritten while the build ran.\n');
    const records = await RecordCache.open(cache);
    await readContentFast(sources, { cache: records, workers: 0 });
    await records.save();
    expect(source.stamp).toBeUndefined();
    expect(stampsText().split('\n')).not.toContain(source.file);
    expect(sources.posts[1]!.stamp).toMatch(/^git:/);
    // The next checkout holds the committed text again, under the same blob: it must not get the record of the other.
    await checkout();
    await build({ content, out, now: NOW, cache });
    await expectSameAsClean();
  }, 60_000);

  it('does not vouch for a file git would read: racy, assume-unchanged, or in no work tree', async () => {
    await checkout();
    const index = join(site, '.git', 'index');
    const posts = (await loadContent(content, { stamped: true })).posts;
    expect(posts.every((s) => s.stamp?.startsWith('git:'))).toBe(true);
    const path = resolve(posts[0]!.file);

    // An index written in the same nanosecond as the earliest file it lists, and so no later than any
    // (git's racy-git rule): every file may have changed unseen.
    const written = statSync(index, { bigint: true }).mtimeNs;
    const earliest = posts.map((s) => statSync(s.file, { bigint: true }).mtimeNs).reduce((a, b) => (a < b ? a : b));
    setModified(index, earliest);
    expect((await postStamps()).filter((s) => s?.startsWith('git:'))).toHaveLength(0);
    setModified(index, written);
    expect((await postStamps())[0]).toMatch(/^git:/);

    git(site, 'update-index', '--assume-unchanged', relative(site, path));
    const stamps = await postStamps();
    expect(stamps[0]).not.toMatch(/^git:/);
    expect(stamps[0]).toBeDefined();
    expect(stamps.slice(1).every((s) => s?.startsWith('git:'))).toBe(true);
    git(site, 'update-index', '--no-assume-unchanged', relative(site, path));

    // A damaged index is none: every file is known by its own stat again.
    writeFileSync(index, Buffer.concat([readFileSync(index).subarray(0, 200), Buffer.alloc(40)]));
    expect(GitIndex.of(content)).toBeNull();
    const stat = await postStamps();
    expect(stat.every((s) => s !== undefined && !s.startsWith('git:'))).toBe(true);
    const result = await build({ content, out, now: NOW, cache });
    expect(result.stats.rendered).toBe(0);
    await expectSameAsClean();
  }, 60_000);
});
