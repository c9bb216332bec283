// The spare output (emit/spare.ts, D56): the output an edit replaces is kept
// in the cache without the files that edit changed, and the next build
// stages in it, linking again only those files. Each build must still
// equal a clean one, never write into the output it replaces (D40), and
// never use a spare that is not the output its state names; `folio build
// --timings` says which way the output was staged.
import { appendFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type BuildResult } from '../build/emit/build.js';
import { spareDir } from '../build/emit/spare.js';
import { MANIFEST_PATH } from '../build/core/files.js';
import { folio } from './helpers/cli.js';
import { cleanBuild, copyContent, NOW, tempDir, treeFiles, treeHash } from './helpers/site.js';

const SLOW = { timeout: 300_000 };
let work: string;
let content: string;
let cache: string;
let out: string;
let spare: string;
let cleanRuns = 0;

beforeAll(async () => {
  work = await tempDir('folio-spare-');
  content = await copyContent();
  cache = join(work, '.folio-cache');
  out = join(work, 'dist');
  spare = spareDir(cache, out);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

const incremental = (now = NOW): Promise<BuildResult> => build({ content, out, now, cache });

async function expectSameAsClean(now = NOW): Promise<void> {
  const clean = join(work, `clean-${cleanRuns++}`);
  await cleanBuild({ content, out: clean, now }, { cache, out });
  expect(await treeHash(out)).toEqual(await treeHash(clean));
  await rm(clean, { recursive: true, force: true });
}

/**
 * The spare is the output a build replaced (`previous`, its tree) but for
 * the files that build changed, which the next one links again anyway: its
 * manifest stays, and every other file is the output's own (one inode), so
 * the spare takes no room but its manifest's.
 */
async function expectSpareOf(previous: Record<string, string>, changed: readonly string[]): Promise<void> {
  const pruned = new Set(changed.filter((path) => path !== MANIFEST_PATH));
  const files = treeFiles(previous).filter((path) => !pruned.has(path));
  const tree = await treeHash(spare);
  expect(treeFiles(tree).sort()).toEqual(files.sort());
  for (const path of files) expect(tree[path], path).toBe(previous[path]);
  for (const path of files.filter((p) => p !== MANIFEST_PATH))
    expect((await stat(join(spare, path))).ino, path).toBe((await stat(join(out, path))).ino);
  expect(pruned.size).toBeGreaterThan(0);
}

let edits = 0;
const editBody = () => appendFile(join(content, 'posts', 'bounce-handling.md'), `\nA sentence added by edit ${++edits}.\n`);
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('the spare output', () => {
  it(
    'is the output an edit replaced, without the files it changed; the next edit stages in it and equals a clean build',
    SLOW,
    async () => {
      const first = await incremental();
      expect(first.stats.staged).toBe('empty');
      // Every file was written: a spare would share none with the output.
      expect(await exists(spare)).toBe(false);
      const firstTree = await treeHash(out);

      await editBody();
      const second = await incremental();
      expect(second.stats.staged).toBe('links');
      expect(second.state.spare?.changed.sort()).toEqual([...second.stats.written, ...second.stats.removed].sort());
      expect(second.stats.written).not.toContain('blog/tags/email.html');
      await expectSpareOf(firstTree, second.state.spare!.changed);
      await expectSameAsClean();
      const secondTree = await treeHash(out);

      await editBody();
      const third = await incremental();
      expect(third.stats.staged).toBe('spare');
      await expectSameAsClean();
      // The output it replaced is the spare now, its files as they were: nothing was written into it.
      await expectSpareOf(secondTree, third.state.spare!.changed);

      await editBody();
      expect((await incremental()).stats.staged).toBe('spare');
      await expectSameAsClean();
    },
  );

  it('is not used, but removed, when it is not the output the state names', SLOW, async () => {
    await writeFile(join(spare, MANIFEST_PATH), '{"edited":"by hand"}');
    const before = await treeHash(out);
    await editBody();
    const next = await incremental();
    expect(next.stats.staged).toBe('links');
    await expectSameAsClean();
    await expectSpareOf(before, next.state.spare!.changed);
  });

  it('is not used when it is gone, and the build links every file instead', SLOW, async () => {
    await rm(spare, { recursive: true });
    await editBody();
    expect((await incremental()).stats.staged).toBe('links');
    await expectSameAsClean();
    expect(await exists(spare)).toBe(true);
  });

  it('is not kept by a build that changed most files', SLOW, async () => {
    // Every page, twin and record shows the site's address.
    const site = join(content, 'site.yaml');
    await writeFile(
      site,
      (await readFile(site, 'utf8')).replace('site_url: https://hannabrink.example', 'site_url: https://brink.example'),
    );
    const all = await incremental();
    expect(all.stats.written.length * 2).toBeGreaterThan(all.files);
    expect(all.state.spare).toBeUndefined();
    expect(await exists(spare)).toBe(false);
    await editBody();
    expect((await incremental()).stats.staged).toBe('links');
    await expectSameAsClean();
  });

  it('taken by a build that fails, leaves the output as it was, and the next build links every file', SLOW, async () => {
    await editBody();
    expect((await incremental()).stats.staged).toBe('spare');
    const before = await treeHash(out);
    const broken = join(content, 'posts', 'broken.md');
    await writeFile(broken, '---\ntitle: "Broken"\ndate: 2024-01-01\n---\n\nSee [nothing](/blog/no-such-post).\n');
    await expect(incremental()).rejects.toThrow(/no-such-post/);
    expect(await treeHash(out)).toEqual(before);
    expect((await readdir(work)).filter((name) => name.startsWith('.dist.folio-tmp-'))).toEqual([]);
    expect(await exists(spare)).toBe(false);
    await rm(broken);
    const next = await incremental();
    expect(next.stats.staged).toBe('links');
    await expectSameAsClean();
  });
});

describe('folio build --timings', () => {
  it('names how the build staged its output: in an empty folder, over links, then in the spare', SLOW, async () => {
    const own = await copyContent();
    const dir = await tempDir('folio-timings-');
    try {
      const post = join(own, 'posts', 'bounce-handling.md');
      const staged = async () => {
        const run = await folio('build', '--content', own, '--out', join(dir, 'dist'), '--now', NOW.toISOString(), '--timings');
        expect(run.code, run.stderr).toBe(0);
        return /\(staged: ([^)]+)\)/.exec(run.stdout)?.[1];
      };
      expect(await staged()).toBe('in an empty folder');
      await appendFile(post, '\nA sentence added for --timings.\n');
      expect(await staged()).toBe('over links to the previous output');
      await appendFile(post, '\nAnother sentence added for --timings.\n');
      expect(await staged()).toBe('in the spare output');
    } finally {
      await rm(own, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    }
  });
});
