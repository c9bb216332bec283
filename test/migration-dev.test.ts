// folio dev after a blog's files are moved into place (content/strays.ts):
// the warning of a Markdown file folio does not read comes and goes with the
// file, without a restart.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import { readChanges } from '../build/dev/planner.js';
import { tempDir } from './helpers/site.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const POST = '---\ntitle: Moved\ndate: 2024-01-05\n---\n\nBody.\n';

describe('folio dev and Markdown files it does not read', () => {
  it('drops the warning once the file is moved into posts/, and warns of a .markdown file added while it runs', async () => {
    const dir = await tempDir('folio-migration-dev-');
    dirs.push(dir);
    await mkdir(join(dir, 'posts/2024'), { recursive: true });
    await writeFile(join(dir, 'posts/2024/moved.md'), POST);
    const first = await loadContent(dir);
    expect(first.strays?.map((s) => s.file)).toEqual([expect.stringMatching(/posts\/2024\/moved\.md$/)]);

    // Moved where folio reads it, as the warning says: the watcher reports both paths.
    await rename(join(dir, 'posts/2024/moved.md'), join(dir, 'posts/moved.md'));
    const moved = await readChanges(dir, first, ['posts/2024/moved.md', 'posts/moved.md']);
    expect(moved.strays).toEqual([]);
    expect(moved.posts.map((p) => p.file)).toEqual([expect.stringMatching(/posts\/moved\.md$/)]);

    // A file of another extension put in place while dev runs is warned of at once.
    await writeFile(join(dir, 'posts/other.markdown'), POST);
    const added = await readChanges(dir, moved, ['posts/other.markdown']);
    expect(added.strays?.map((s) => s.message)).toEqual([
      'folio reads a post only from a file ending in .md, so other.markdown is not published.',
    ]);
  });

  it('drops the warnings of a subfolder removed whole, and warns of one moved in, as the watcher reports a folder', async () => {
    const dir = await tempDir('folio-migration-dev-');
    dirs.push(dir);
    await mkdir(join(dir, 'posts/2024/deep'), { recursive: true });
    await writeFile(join(dir, 'posts/2024/a.md'), POST);
    await writeFile(join(dir, 'posts/2024/deep/b.md'), POST);
    await mkdir(join(dir, 'posts/img'));
    await writeFile(join(dir, 'posts/img/photo.png'), 'png');
    const first = await loadContent(dir);
    expect(first.strays).toHaveLength(2);

    await rm(join(dir, 'posts/2024'), { recursive: true });
    const removed = await readChanges(dir, first, ['posts/2024/']);
    expect(removed.strays).toEqual([]);

    const elsewhere = await tempDir('folio-migration-dev-away-');
    dirs.push(elsewhere);
    await writeFile(join(elsewhere, 'c.md'), POST);
    await rename(elsewhere, join(dir, 'posts/2025'));
    const added = await readChanges(dir, removed, ['posts/2025/']);
    expect(added.strays?.map((s) => s.file)).toEqual([expect.stringMatching(/posts\/2025\/c\.md$/)]);

    // A folder of images moved holds no Markdown: the content is not read again (its posts stay the same objects).
    await rename(join(dir, 'posts/img'), join(dir, 'posts/pictures'));
    const images = await readChanges(dir, added, ['posts/img/', 'posts/pictures/']);
    expect(images).toBe(added);
  });
});
