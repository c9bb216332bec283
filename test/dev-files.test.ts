// folio dev and the files beside the Markdown: a static file (D43), under a
// dot-folder or a folder made during the session, content/theme.css (D46), and
// an image a post shows (D44), each published from the edit as a clean build would.
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { devSession, SLOW } from './helpers/dev-session.js';

const s = devSession('folio-dev-files-');

describe('folio dev', () => {
  it(
    'publishes a file added to content/static/ and a content/theme.css edit as they happen (D43, D46), as a clean build would',
    SLOW,
    async () => {
      const added = s.nextRebuild();
      await writeFile(join(s.content, 'static/notes.txt'), 'first\n');
      const a = await added;
      expect(
        a.sources.added.some((f) => f.endsWith('static/notes.txt')),
        JSON.stringify(a.sources),
      ).toBe(true);
      const notes = await fetch(`${s.dev.url}/notes.txt`);
      expect(notes.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await notes.text()).toBe('first\n');

      const themed = s.nextRebuild();
      await writeFile(join(s.content, 'theme.css'), '.brand { letter-spacing: 0.02em; }\n');
      await themed;
      expect(await (await fetch(`${s.dev.url}/assets/theme.css`)).text()).toContain('.brand { letter-spacing: 0.02em; }');
      await s.expectSameAsClean();

      const removed = s.nextRebuild();
      await rm(join(s.content, 'static/notes.txt'));
      await removed;
      expect((await fetch(`${s.dev.url}/notes.txt`)).status).toBe(404);
      const unthemed = s.nextRebuild();
      await rm(join(s.content, 'theme.css'));
      await unthemed;
      expect(await (await fetch(`${s.dev.url}/assets/theme.css`)).text()).not.toContain('letter-spacing');
    },
  );

  it('rebuilds for a static file under a dot-folder, and in a folder made during the session (D43)', SLOW, async () => {
    await s.dev.idle();
    let rebuilt = s.nextRebuild();
    await appendFile(join(s.content, 'static/.well-known/security.txt'), 'Preferred-Languages: en\n');
    expect((await rebuilt).ok).toBe(true);
    await s.dev.idle();
    expect(await (await fetch(`${s.dev.url}/.well-known/security.txt`)).text()).toContain('Preferred-Languages: en');
    rebuilt = s.nextRebuild();
    await mkdir(join(s.content, 'static/docs'));
    await writeFile(join(s.content, 'static/docs/a.txt'), 'one\n');
    await rebuilt;
    await s.dev.idle();
    expect(await (await fetch(`${s.dev.url}/docs/a.txt`)).text()).toBe('one\n');
    // The folder did not exist when the session started: a change in it is seen all the same.
    rebuilt = s.nextRebuild();
    await writeFile(join(s.content, 'static/docs/a.txt'), 'two\n');
    await rebuilt;
    await s.dev.idle();
    expect(await (await fetch(`${s.dev.url}/docs/a.txt`)).text()).toBe('two\n');
    await s.expectSameAsClean();
  });

  it('serves an image added to a post (D44) from the edit, and ends as a clean build', SLOW, async () => {
    // Whatever the test before left to rebuild is done first.
    await s.dev.idle();
    const file = join(s.content, 'posts/retiring-pid-files.md');
    const original = await readFile(file, 'utf8');
    const rebuilt = s.nextRebuild();
    await writeFile(file, `${original.trimEnd()}\n\n![The affected-only pipeline](./img/affected-pipeline.svg)\n`);
    const report = await rebuilt;
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
    const html = await (await fetch(`${s.dev.url}/blog/retiring-pid-files`)).text();
    const src = /<img src="(\/media\/[0-9a-f]{20}\.svg)" width="960" height="330" alt="The affected-only pipeline"/.exec(html)?.[1];
    expect(src, `${JSON.stringify(report)}\n${html.match(/<img[^>]*>/g)}`).toBeDefined();
    const svg = await fetch(`${s.dev.url}${src}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(await (await fetch(`${s.dev.url}/blog/retiring-pid-files.md`)).text()).toContain(`(https://hannabrink.example${src})`);
    await s.dev.idle();
    await s.expectSameAsClean();
  });
  it('rebuilds when an image file changes (D44): the post shows the new bytes at a new address', SLOW, async () => {
    await s.dev.idle();
    const before = await (await fetch(`${s.dev.url}/blog/retiring-pid-files`)).text();
    const old = /<img src="(\/media\/[0-9a-f]{20}\.svg)"[^>]*alt="The affected-only pipeline"/.exec(before)?.[1];
    expect(old).toBeDefined();
    const rebuilt = s.nextRebuild();
    await writeFile(
      join(s.content, 'posts/img/affected-pipeline.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#def"/></svg>',
    );
    const report = await rebuilt;
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
    await s.dev.idle();
    const after = await (await fetch(`${s.dev.url}/blog/retiring-pid-files`)).text();
    const next = /<img src="(\/media\/[0-9a-f]{20}\.svg)" width="200" height="100" alt="The affected-only pipeline"/.exec(after)?.[1];
    expect(next, after.match(/<img[^>]*>/g)?.join('\n')).toBeDefined();
    expect(next).not.toBe(old);
    expect((await fetch(`${s.dev.url}${next}`)).status).toBe(200);
    await s.expectSameAsClean();
  });
});
