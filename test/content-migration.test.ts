// A blog moved from Hugo or Jekyll into content/posts/ (D2): what those
// generators accept and folio does not read is reported, each at its file
// and line with the fix, never published half-read or left out in silence.
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folioIn } from './helpers/cli.js';
import { workspace } from './helpers/workspace.js';

const SLOW = { timeout: 120_000 };
const NOW = '2026-11-22';
const work = workspace('folio-migration-cwd-');

const POST = '---\ntitle: Moved from another generator\ndate: 2024-01-05\n---\n\nA paragraph.\n';
const warningsOf = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('folio: warning: '));

describe('a blog moved from Hugo or Jekyll (D2)', () => {
  it('warns of each Markdown file folio does not read: subfolders, page bundles, other extensions', SLOW, async () => {
    const dir = await work.content();
    await mkdir(join(dir, 'posts/2024'));
    await writeFile(join(dir, 'posts/2024/year-in-review.md'), POST);
    await mkdir(join(dir, 'posts/hugo-bundle'));
    await writeFile(join(dir, 'posts/hugo-bundle/index.md'), POST);
    await writeFile(join(dir, 'posts/2024-01-05-jekyll.markdown'), POST);
    await writeFile(join(dir, 'projects/Side-Project.MD'), POST);
    // Images and other files in a subfolder are no content: the sample keeps its images in posts/img/.
    await writeFile(join(dir, 'posts/img/notes.txt'), 'not a post');
    const out = join(work.cwd, 'strays');
    const built = await folioIn(['build', '--content', dir, '--out', out, '--now', NOW], work.cwd);
    expect(built.code, built.stderr).toBe(0);
    const p = `${relative(work.cwd, dir)}/posts`;
    expect(warningsOf(built.stderr)).toEqual([
      `folio: warning: ${p}/2024-01-05-jekyll.markdown:1:1: folio reads a post only from a file ending in .md, so 2024-01-05-jekyll.markdown is not published.`,
      `folio: warning: ${p}/2024/year-in-review.md:1:1: This post is in a subfolder of ${p}, and folio reads posts only from ${p} itself (subfolders hold images), so it is not published.`,
      `folio: warning: ${p}/hugo-bundle/index.md:1:1: This post is in a subfolder of ${p}, and folio reads posts only from ${p} itself (subfolders hold images), so it is not published.`,
      `folio: warning: ${relative(work.cwd, dir)}/projects/Side-Project.MD:1:1: folio reads a project only from a file ending in .md, so Side-Project.MD is not published.`,
    ]);
    expect(built.stderr).toContain('hint: To publish it, rename it to 2024-01-05-jekyll.md (the name without .md is its address)');
    expect(built.stderr).toContain(`hint: To publish it, move it to ${p}/year-in-review.md and list its old address under aliases`);
    expect(built.stderr).toContain(
      `hint: To publish it, move it to ${p}/hugo-bundle.md, and write its relative image paths from there (./photo.png becomes ./hugo-bundle/photo.png)`,
    );
    expect(built.stderr).toContain('hint: To publish it, rename it to side-project.md');
    expect(built.stderr).not.toContain('notes.txt');
    expect(existsSync(join(out, 'blog/year-in-review.html'))).toBe(false);
    // folio check says the same, in its JSON report too.
    const checked = await folioIn(['check', '--content', dir, '--now', NOW, '--json'], work.cwd);
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout).warnings).toEqual(
      warningsOf(built.stderr).map((w) => expect.stringContaining(w.slice('folio: warning: '.length))),
    );
  });
});
