// folio dev under the changes an author's tools make at once: a branch
// checked out, a stash popped, a folder renamed. Whatever order the
// rebuilds take and whatever each leaves to the next, the output ends as
// a clean build of the content.
import { appendFile, cp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevSession, RebuildReport } from '../build/dev.js';
import { startTestDev, type TestDev } from './helpers/dev.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';

const SLOW = { timeout: 240_000 };
const EXTRA_POSTS = 300;

let work: string;
let content: string;
let out: string;
let cache: string;
let dev: DevSession;
let lines: string[];
let nextRebuild: TestDev['nextRebuild'];

beforeAll(async () => {
  work = await tempDir('folio-dev-batches-');
  content = await copyContent();
  // Enough documents that the search index is patched on its own thread (search-index.ts).
  for (let i = 0; i < EXTRA_POSTS; i++)
    await writeFile(
      join(content, `posts/generated-${i}.md`),
      `---\ntitle: Generated post ${i}\ndate: 2025-01-${String((i % 28) + 1).padStart(2, '0')}\ntags: [generated]\n---\n\nThe body of generated post ${i}.\n`,
    );
  out = join(work, 'dist');
  cache = join(work, '.folio-cache');
  ({ dev, lines, nextRebuild } = await startTestDev(content, out, cache));
}, 240_000);
afterAll(async () => {
  await dev?.close();
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

/** The status the dev server answers a page with once every change it has seen is in the output (500 while the content has problems). */
async function served(path: string): Promise<number> {
  await dev.idle();
  return (await fetch(`${dev.url}${path}`, { headers: { accept: 'text/html' } })).status;
}

/** Two rebuilds, the second handed on while the first runs, as the watcher hands on a batch that comes meanwhile. */
async function inARow(first: string[], second: string[]): Promise<[RebuildReport, RebuildReport]> {
  const running = dev.rebuild(first);
  await new Promise((ok) => setImmediate(ok));
  return Promise.all([running, dev.rebuild(second)]);
}

/** A clean build with the record of what the session's first build published (D61), which lists the posts removed since. */
async function expectSameAsClean(): Promise<void> {
  const clean = join(work, `clean-${Date.now()}`);
  await cleanBuild({ content, out: clean, now: NOW }, { cache, out });
  expect(await treeHash(out), lines.join('\n')).toEqual(await treeHash(clean));
  await rm(clean, { recursive: true, force: true });
}

describe('folio dev under changes in batches', () => {
  it('makes the functions’ files again after a rebuild that left them to one that found nothing new', SLOW, async () => {
    // A post renamed: its addresses move, and so do the route table and the post lists the functions read.
    await rename(join(content, 'posts/bounce-handling.md'), join(content, 'posts/bounces-explained.md'));
    for (const file of ['posts/email-deliverability-b2b-saas.md']) {
      const path = join(content, file);
      await writeFile(path, (await readFile(path, 'utf8')).replaceAll('/blog/bounce-handling', '/blog/bounces-explained'));
    }
    const paths = ['posts/bounce-handling.md', 'posts/bounces-explained.md', 'posts/email-deliverability-b2b-saas.md'];
    // The same batch twice, as the watcher hands on a save reported twice: the first leaves its artifacts to
    // the second, which finds no content change.
    const [a, b] = await inARow(paths, paths);
    expect(a.ok && b.ok, lines.join('\n')).toBe(true);
    expect(a.totalMs, 'the first rebuild left its artifacts to the next').toBeUndefined();
    await dev.idle();
    await expectSameAsClean();
  });

  it('patches the search index with an edit whose rebuild left it to the next one', SLOW, async () => {
    await dev.idle();
    const append = async (file: string, text: string) =>
      writeFile(join(content, file), `${await readFile(join(content, file), 'utf8')}\n${text}\n`);
    // A post's body and a project: every response is asked again, and the artifacts are left to the rebuild queued behind.
    await append('posts/retiring-pid-files.md', 'A paragraph about quetzalcoatlus, added in a session.');
    await append('projects/jumpcfg.md', 'One more line about the project.');
    await append('posts/generated-7.md', 'Another paragraph.');
    const [a, b] = await inARow(['posts/retiring-pid-files.md', 'projects/jumpcfg.md'], ['posts/generated-7.md']);
    expect(a.ok && b.ok, lines.join('\n')).toBe(true);
    expect(a.totalMs, 'the first rebuild left its artifacts to the next').toBeUndefined();
    await dev.idle();
    expect(await readFile(join(out, '_folio/search-index.json'), 'utf8')).toContain('quetzalcoatlus');
    await expectSameAsClean();
  });

  it('sees a folder of images renamed away and back: the posts that show them have a problem meanwhile (D44)', SLOW, async () => {
    await dev.idle();
    const broken = nextRebuild();
    await rename(join(content, 'posts/img'), join(content, 'posts/pictures'));
    const b = await broken;
    expect(b.ok).toBe(false);
    // The terminal names the folders, since no content file changed.
    const line = lines.find((l) => l.includes('→ 3 problems')) ?? '';
    for (const folder of ['posts/img/', 'posts/pictures/']) expect(line).toContain(`${folder} changed`);
    expect(b.problems.map((p) => p.message).join('\n')).toContain('./img/bounce-classifier.svg is missing');
    const fixed = nextRebuild();
    await rename(join(content, 'posts/pictures'), join(content, 'posts/img'));
    expect((await fixed).ok).toBe(true);
    await dev.idle();
    await expectSameAsClean();
  });

  it('watches a folder that was removed and comes back', SLOW, async () => {
    await dev.idle();
    const saved = join(work, 'static-saved');
    await cp(join(content, 'static'), saved, { recursive: true });
    let rebuilt = nextRebuild();
    await rm(join(content, 'static'), { recursive: true });
    await rebuilt;
    await dev.idle();
    rebuilt = nextRebuild();
    await cp(saved, join(content, 'static'), { recursive: true });
    await rebuilt;
    await dev.idle();
    rebuilt = nextRebuild();
    await appendFile(join(content, 'static/.well-known/security.txt'), 'Preferred-Languages: en, nl\n');
    expect((await rebuilt).ok).toBe(true);
    await dev.idle();
    expect(await (await fetch(`${dev.url}/.well-known/security.txt`)).text()).toContain('Preferred-Languages: en, nl');
  });

  it('watches the content folder deleted and made again, as a checkout of it or a copy does', SLOW, async () => {
    await dev.idle();
    const away = join(work, 'content-away');
    let rebuilt = nextRebuild();
    const printed = lines.length;
    await rename(content, away);
    const gone = await rebuilt;
    expect(gone.ok).toBe(false);
    // One problem that says what happened, not every file it held missing; and the line names a few files, not 300.
    expect(gone.problems).toHaveLength(1);
    expect(gone.problems[0].message).toContain('is gone: moved, renamed or deleted');
    const said = lines.slice(printed).find((l) => l.includes('still serving the last good build'))!;
    expect(said).toMatch(/ removed and \d+ more [^,]*(, \d+ changed\))? → 1 problem; still serving the last good build$/);
    expect(said.split(', ').length).toBeLessThanOrEqual(4);
    await dev.idle();
    await cp(away, content, { recursive: true });
    // A rebuild may read the folder half copied; the events of the rest follow, and so does the site.
    await expect.poll(() => served('/'), { timeout: 60_000, interval: 100 }).toBe(200);
    await dev.idle();
    rebuilt = nextRebuild();
    await appendFile(join(content, 'posts/proxyjump-over-bastions.md'), '\nWritten once the content folder was back.\n');
    const r = await rebuilt;
    expect(r.ok, JSON.stringify(r.problems)).toBe(true);
    await dev.idle();
    expect(await (await fetch(`${dev.url}/blog/proxyjump-over-bastions`)).text()).toContain('Written once the content folder was back.');
    await expectSameAsClean();
  });

  it('takes the saves that come during a rebuild in one rebuild, as an editor saving on every keystroke makes them', SLOW, async () => {
    await dev.idle();
    const file = join(content, 'posts/proxyjump-over-bastions.md');
    const original = await readFile(file, 'utf8');
    await writeFile(file, `${original}\nKeystroke 0.\n`);
    const first = dev.rebuild(['posts/proxyjump-over-bastions.md']);
    // The first rebuild runs; twenty saves come and are handed on while it does.
    await new Promise((ok) => setImmediate(ok));
    const saves: Promise<RebuildReport>[] = [];
    for (let i = 1; i <= 20; i++) {
      writeFileSync(file, `${original}\nKeystroke ${i}.\n`);
      saves.push(dev.rebuild(['posts/proxyjump-over-bastions.md']));
    }
    const reports = await Promise.all([first, ...saves]);
    expect(new Set(reports).size, 'rebuilds run').toBeLessThanOrEqual(2);
    await dev.idle();
    expect(await (await fetch(`${dev.url}/blog/proxyjump-over-bastions`)).text()).toContain('Keystroke 20.');
    await expectSameAsClean();
  });

  it("says that a post saved with a date after the session's clock is not published, and publishes nothing of it (D2)", SLOW, async () => {
    await dev.idle();
    const mark = lines.length;
    const rebuilt = nextRebuild();
    await writeFile(join(content, 'posts/tomorrow.md'), '---\ntitle: Tomorrow\ndate: 2026-11-23\ntags: [email]\n---\n\nNot yet.\n');
    const r = await rebuilt;
    expect(r.ok).toBe(true);
    expect(r.held).toEqual([{ file: expect.stringContaining('tomorrow.md'), date: '2026-11-23' }]);
    expect(lines.slice(mark).join('\n')).toContain('--now 2026-11-23');
    await dev.idle();
    expect((await fetch(`${dev.url}/blog/tomorrow`)).status).toBe(404);
    await expectSameAsClean();
  });

  it('builds the output whole again when it was deleted during the session', SLOW, async () => {
    await dev.idle();
    await rm(out, { recursive: true });
    const rebuilt = nextRebuild();
    await appendFile(join(content, 'posts/proxyjump-over-bastions.md'), '\nWritten once dist/ was deleted.\n');
    expect((await rebuilt).ok).toBe(true);
    await dev.idle();
    expect((await fetch(`${dev.url}/blog`)).status).toBe(200);
    await expectSameAsClean();
  });
});
