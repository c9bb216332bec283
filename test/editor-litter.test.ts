// What editors and operating systems leave beside the files an author edits
// (an Emacs lock, a vim swap file, a backup, macOS's AppleDouble twins) is
// neither content nor published: a build with it is the build without it,
// and folio dev does not rebuild for it.
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLitter } from '../build/content/litter.js';
import { watchContent } from '../build/dev/watcher.js';
import { folio } from './helpers/cli.js';
import { copyContent, tempDir, treeHash } from './helpers/site.js';

/** Beside posts/bounce-handling.md and static/humans.txt: what Emacs, vim, JetBrains IDEs, backups and macOS write. */
async function litter(content: string): Promise<void> {
  for (const [folder, name] of [
    ['posts', 'bounce-handling.md'],
    ['static', 'humans.txt'],
  ] as const) {
    const dir = join(content, folder);
    // Emacs's lock while a buffer has unsaved changes: a symbolic link to nowhere.
    await symlink('hanna@laptop.4242:1764230400', join(dir, `.#${name}`));
    await writeFile(join(dir, `#${name}#`), 'auto-save');
    await writeFile(join(dir, `.${name}.swp`), new Uint8Array([0x62, 0x30, 0x56, 0x49, 0x4d, 0x00, 0xff]));
    await writeFile(join(dir, `${name}~`), 'backup');
    await writeFile(join(dir, `${name}___jb_tmp___`), 'safe write');
    // AppleDouble: binary metadata under the file's name, which ends in .md too.
    await writeFile(join(dir, `._${name}`), new Uint8Array([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]));
    await writeFile(join(dir, '.DS_Store'), new Uint8Array([0, 0, 0, 1, 66, 117, 100, 49]));
  }
}

describe('editor and system litter in content/', () => {
  let work: string;
  let clean: string;
  let littered: string;
  beforeAll(async () => {
    work = await tempDir();
    clean = await copyContent();
    await mkdir(join(clean, 'static'), { recursive: true });
    await writeFile(join(clean, 'static', 'humans.txt'), 'Written by hand.\n');
    littered = await copyContent(clean);
    await litter(littered);
  });
  afterAll(async () => {
    for (const dir of [work, clean, littered]) await rm(dir, { recursive: true, force: true });
  });

  it('builds the same bytes as the content without it', async () => {
    const outs: Record<string, string>[] = [];
    for (const [name, content] of [
      ['clean', clean],
      ['littered', littered],
    ]) {
      const out = join(work, name!);
      const result = await folio('build', '--content', content!, '--out', out, '--no-cache', '--now', '2026-11-22');
      expect(result.code, result.stderr).toBe(0);
      outs.push(await treeHash(out));
    }
    expect(Object.keys(outs[1]!).filter((f) => /#|~|\.swp|jb_tmp|\._|DS_Store/.test(f))).toEqual([]);
    expect(outs[1]).toEqual(outs[0]);
  });

  it('passes folio check', async () => {
    const result = await folio('check', '--content', littered, '--now', '2026-11-22');
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('is not reported to folio dev, while the files beside it are', async () => {
    const dir = await copyContent(clean);
    const seen: string[] = [];
    const watcher = watchContent(
      dir,
      (path) => seen.push(path),
      (error) => seen.push(`error: ${error.message}`),
    );
    try {
      await sleep(50);
      await litter(dir);
      await writeFile(join(dir, 'posts', 'bounce-handling.md'), '---\ntitle: Edited\n---\n', { flag: 'a' });
      // Bounded: the post's own event is expected within a few milliseconds.
      for (let i = 0; i < 100 && !seen.includes('posts/bounce-handling.md'); i++) await sleep(10);
    } finally {
      watcher.close();
      await rm(dir, { recursive: true, force: true });
    }
    expect(seen).toContain('posts/bounce-handling.md');
    expect(seen.filter((path) => path !== 'posts/bounce-handling.md')).toEqual([]);
  });

  it('is told apart from names an author gives files', () => {
    for (const name of [
      '.#post.md',
      '#post.md#',
      'post.md~',
      '.post.md.swp',
      '.post.md.swo',
      '._post.md',
      'post.md___jb_old___',
      '.DS_Store',
      'Thumbs.db',
    ])
      expect(isLitter(name), name).toBe(true);
    for (const name of ['post.md', 'c#-tips.md', 'humans.txt', '.well-known', '.htaccess', 'swap.md', 'a~b.md', '#hashtag.md'])
      expect(isLitter(name), name).toBe(false);
  });
});
