// An incremental build links the previous output's files into its staging
// directory at once (emit/prelink.ts, D56): what it writes again must replace
// a link, never write through it into the previous output (D40), and what it
// no longer has must be gone before the swap, its emptied folders with it.
// Both writers are tested: the writing threads (what a build uses) and the
// asynchronous one on this thread (the sources without a compile).
import { link, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStaging } from '../build/emit/atomic.js';
import { OutputError } from '../build/emit/output-error.js';
import { MANIFEST_PATH } from '../build/core/files.js';
import { fsWriter, threadWriter, type Writer } from '../build/emit/staging-writers.js';
import { utf8 } from '../build/core/http.js';
import { tempDir, treeHash } from './helpers/site.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const PREVIOUS: Record<string, string> = {
  [MANIFEST_PATH]: '{"build":"previous"}',
  'index.html': 'the previous home page',
  'kept.json': '{"kept":true}',
  'llms-full.txt': 'AAAA middle ZZZZ',
  'blog/tags/gone.html': 'a tag page the new build no longer has',
  'blog/tags/gone.md': 'its twin',
  'blog/post.html': 'a post the new build keeps',
};

/** A previous output, and a second link to each of its files outside it: what its bytes must still be after the build. */
async function previousOutput(): Promise<{ parent: string; out: string; witness: string }> {
  const parent = await tempDir('folio-prelink-');
  dirs.push(parent);
  const out = join(parent, 'dist');
  const witness = join(parent, 'witness');
  for (const [path, text] of Object.entries(PREVIOUS)) {
    await mkdir(dirname(join(out, path)), { recursive: true });
    await writeFile(join(out, path), text);
    await mkdir(dirname(join(witness, path)), { recursive: true });
    await link(join(out, path), join(witness, path));
  }
  return { parent, out, witness };
}

async function witnessUnchanged(witness: string): Promise<void> {
  for (const [path, text] of Object.entries(PREVIOUS)) expect(await readFile(join(witness, path), 'utf8'), path).toBe(text);
}

describe('prelinking the previous output', () => {
  it('reuses a prelinked file for nothing, replaces the written and spliced ones, and removes the gone ones with their folders', async () => {
    const { out, witness } = await previousOutput();
    const staging = await openStaging(out);
    staging.prelink(Object.keys(PREVIOUS));
    // Asked for at once: the write waits for the links rather than race them.
    await staging.write('index.html', 'the new home page');
    await staging.write(MANIFEST_PATH, '{"build":"new"}');
    await staging.write('blog/new-post.html', 'a new post');
    expect(staging.reuse('kept.json')).toBeUndefined();
    expect(staging.reuse('blog/post.html')).toBeUndefined();
    const edits = [{ start: 5, end: 11, bytes: utf8('edited') }];
    expect(await staging.splice('llms-full.txt', PREVIOUS['llms-full.txt']!.length, edits)).toBe(true);
    await staging.commit(['blog/tags/gone.html', 'blog/tags/gone.md']);

    const tree = await treeHash(out);
    expect(Object.keys(tree).sort()).toEqual(
      ['_folio/', MANIFEST_PATH, 'blog/', 'blog/new-post.html', 'blog/post.html', 'index.html', 'kept.json', 'llms-full.txt'].sort(),
    );
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('the new home page');
    expect(await readFile(join(out, 'llms-full.txt'), 'utf8')).toBe('AAAA edited ZZZZ');
    // A kept file is the previous file itself, linked.
    expect((await stat(join(out, 'kept.json'))).ino).toBe((await stat(join(witness, 'kept.json'))).ino);
    expect((await stat(join(out, 'index.html'))).ino).not.toBe((await stat(join(witness, 'index.html'))).ino);
    await witnessUnchanged(witness);
  });

  it('leaves the previous output as it was when the build stops instead', async () => {
    const { parent, out, witness } = await previousOutput();
    const before = await treeHash(out);
    const staging = await openStaging(out);
    staging.prelink(Object.keys(PREVIOUS));
    await staging.write('index.html', 'never swapped in');
    await staging.abort();
    expect(await treeHash(out)).toEqual(before);
    await witnessUnchanged(witness);
    expect((await readdir(parent)).sort()).toEqual(['dist', 'witness']);
  });

  it('links what is there of a previous output with files removed by hand: a missing one is made if written, and fails the build if kept', async () => {
    const { parent, out } = await previousOutput();
    const staging = await openStaging(out);
    staging.prelink([...Object.keys(PREVIOUS), 'removed-by-hand.html', 'also-removed.html']);
    await staging.write('removed-by-hand.html', 'made again');
    expect(await staging.reuse('kept.json')).toBeUndefined();
    const failed = await (async () => {
      await staging.reuse('also-removed.html');
      await staging.commit([]);
    })().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(OutputError);
    expect((failed as Error).message).toContain(`cannot write the output directory ${out}`);
    expect((failed as Error).message).toContain('ENOENT');
    await staging.abort();
    expect((await readdir(parent)).sort()).toEqual(['dist', 'witness']);
  });

  it('fails the build with an OutputError when a file cannot be linked nor copied, and leaves nothing behind', async () => {
    const { parent, out, witness } = await previousOutput();
    // A folder where the state names a file: no link (EPERM), and no copy either.
    await mkdir(join(out, 'a-folder'));
    const staging = await openStaging(out);
    staging.prelink([...Object.keys(PREVIOUS), 'a-folder']);
    const failed = await staging.write('index.html', 'new').then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(OutputError);
    expect((failed as Error).message).toContain(`cannot write the output directory ${out}`);
    await staging.abort();
    expect((await readdir(parent)).sort()).toEqual(['dist', 'witness']);
    await witnessUnchanged(witness);
  });

  it('made again, a file removed by hand is in the output', async () => {
    const { out } = await previousOutput();
    const staging = await openStaging(out);
    staging.prelink([...Object.keys(PREVIOUS), 'removed-by-hand.html']);
    await staging.write('removed-by-hand.html', 'made again');
    await staging.commit([]);
    expect(await readFile(join(out, 'removed-by-hand.html'), 'utf8')).toBe('made again');
    expect(await readFile(join(out, 'kept.json'), 'utf8')).toBe(PREVIOUS['kept.json']);
  });

  it('stages in a spare output: relinks only the files it names, removes those the output lacks with their folders, and keeps the rest', async () => {
    const { parent, out, witness } = await previousOutput();
    // The output before the previous one: it differs in index.html, had a page since removed, and lacked kept.json.
    const spareDir = join(parent, 'spare');
    for (const path of Object.keys(PREVIOUS)) {
      if (path === 'kept.json') continue;
      await mkdir(dirname(join(spareDir, path)), { recursive: true });
      if (path === 'index.html') await writeFile(join(spareDir, path), 'the home page before');
      else await link(join(out, path), join(spareDir, path));
    }
    await mkdir(join(spareDir, 'old/deep'), { recursive: true });
    await writeFile(join(spareDir, 'old/deep/removed.html'), 'a page the previous build removed');
    const staging = await openStaging(out);
    const changed = ['index.html', 'kept.json', 'old/deep/removed.html'];
    expect(staging.prelink(Object.keys(PREVIOUS), { dir: spareDir, changed })).toBe(true);
    await staging.write('blog/new-post.html', 'a new post');
    expect(staging.reuse('kept.json')).toBeUndefined();
    await staging.commit(['blog/tags/gone.md'], join(parent, 'kept-aside'));

    const tree = await treeHash(out);
    expect(Object.keys(tree).sort()).toEqual(
      [
        '_folio/',
        MANIFEST_PATH,
        'blog/',
        'blog/new-post.html',
        'blog/post.html',
        'blog/tags/',
        'blog/tags/gone.html',
        'index.html',
        'kept.json',
        'llms-full.txt',
      ].sort(),
    );
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe(PREVIOUS['index.html']);
    // Every file it kept is the previous output's own, linked.
    for (const path of ['index.html', 'kept.json', 'blog/post.html'])
      expect((await stat(join(out, path))).ino, path).toBe((await stat(join(witness, path))).ino);
    await witnessUnchanged(witness);
    // The replaced output is kept where commit was told, whole; the spare is the staging directory now, and gone.
    expect(await treeHash(join(parent, 'kept-aside'))).toEqual(await treeHash(witness));
    expect((await readdir(parent)).sort()).toEqual(['dist', 'kept-aside', 'witness']);
  });

  it('stages afresh, linking every file, when the spare cannot be moved into place', async () => {
    const { parent, out } = await previousOutput();
    const staging = await openStaging(out);
    expect(staging.prelink(Object.keys(PREVIOUS), { dir: join(parent, 'no-such-spare'), changed: ['index.html'] })).toBe(false);
    await staging.commit([]);
    expect(
      Object.keys(await treeHash(out))
        .filter((p) => !p.endsWith('/'))
        .sort(),
    ).toEqual(Object.keys(PREVIOUS).sort());
  });

  for (const [name, make] of [
    ['the writing threads', threadWriter],
    ['the writer on this thread', fsWriter],
  ] as const) {
    it(`${name}: across devices, copies what it cannot link, and still names what is missing`, async (t) => {
      // The previous output in the checkout, the staging folder among the run's temporary files (a tmpfs where there is one).
      await mkdir('test-artifacts', { recursive: true });
      const from = await mkdtemp(join(process.cwd(), 'test-artifacts', 'prelink-'));
      dirs.push(from);
      const staging = await tempDir('folio-prelink-staging-');
      dirs.push(staging);
      if ((await stat(from)).dev === (await stat(staging)).dev)
        return t.skip('the checkout and the temporary files are on one device here');
      for (const [path, text] of Object.entries(PREVIOUS)) {
        await mkdir(dirname(join(from, path)), { recursive: true });
        await writeFile(join(from, path), text);
      }
      const writer: Writer | null = make(staging);
      expect(await writer!.prelink([...Object.keys(PREVIOUS), 'gone.html'], from)).toEqual(['gone.html']);
      await writer!.write('index.html', utf8('replaced'));
      await writer!.flush();
      await writer!.close();
      expect(await readFile(join(staging, 'index.html'), 'utf8')).toBe('replaced');
      expect(await readFile(join(staging, 'blog/post.html'), 'utf8')).toBe(PREVIOUS['blog/post.html']);
      expect(await readFile(join(from, 'index.html'), 'utf8')).toBe(PREVIOUS['index.html']);
    });

    it(`${name}: write and splice replace a prelinked file instead of writing through it`, async () => {
      const { parent, out, witness } = await previousOutput();
      const staging = join(parent, 'staging');
      await mkdir(staging);
      const writer: Writer | null = make(staging);
      expect(writer, 'the write worker is compiled (vitest global setup)').not.toBeNull();
      await writer!.prelink(Object.keys(PREVIOUS), out);
      await writer!.write('index.html', utf8('replaced'));
      await writer!.write('kept.json', '{"kept":false}');
      await writer!.splice('llms-full.txt', out, [{ start: 0, end: 4, bytes: utf8('BBBB') }], 16);
      await writer!.flush();
      await writer!.close();
      expect(await readFile(join(staging, 'index.html'), 'utf8')).toBe('replaced');
      expect(await readFile(join(staging, 'kept.json'), 'utf8')).toBe('{"kept":false}');
      expect(await readFile(join(staging, 'llms-full.txt'), 'utf8')).toBe('BBBB middle ZZZZ');
      expect(await readFile(join(staging, 'blog/post.html'), 'utf8')).toBe(PREVIOUS['blog/post.html']);
      await witnessUnchanged(witness);
    });

    it(`${name}: a prelink that replaces removes the file at each path first, and leaves it removed where the source has none`, async () => {
      const { parent, out, witness } = await previousOutput();
      const staging = join(parent, 'staging');
      await mkdir(join(staging, 'blog'), { recursive: true });
      await writeFile(join(staging, 'index.html'), 'an older home page');
      await writeFile(join(staging, 'blog/gone.html'), 'a page the source no longer has');
      const writer: Writer | null = make(staging);
      expect(await writer!.prelink(['index.html', 'blog/gone.html'], out, true)).toEqual(['blog/gone.html']);
      await writer!.flush();
      await writer!.close();
      expect((await stat(join(staging, 'index.html'))).ino).toBe((await stat(join(out, 'index.html'))).ino);
      expect(await readdir(join(staging, 'blog'))).toEqual([]);
      await witnessUnchanged(witness);
    });
  }
});
