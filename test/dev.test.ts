// folio dev (D1): builds, serves, watches content/, rebuilds in place and
// says what changed. A post added, edited or removed ends as a clean build
// would; broken content or a broken link (D2) is reported at its line while
// the last good build stays in place.
import { existsSync } from 'node:fs';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectEvents, devTraces, devSession, POST, SLOW } from './helpers/dev-session.js';
import { treeHash } from './helpers/site.js';

const s = devSession('folio-dev-');

describe('folio dev', () => {
  it('rebuilds on a change, says what changed, tells open pages, and matches a clean build', SLOW, async () => {
    const stream = await collectEvents(`${s.dev.url}/_folio/dev/events`, 'change');
    const next = s.nextRebuild();
    await appendFile(join(s.content, 'posts', `${POST}.md`), '\nA paragraph written while folio dev was watching.\n');
    const report = await next;
    expect(report.ok, s.lines.join('\n')).toBe(true);
    expect(report.full).toBeNull();
    expect(report.sources.changed).toEqual([relative(process.cwd(), join(s.content, 'posts', `${POST}.md`))]);
    expect(report.files.changed).toContain(`blog/${POST}.html`);
    expect(report.files.changed).not.toContain('blog/proxyjump-over-bastions.html');
    expect(report.targets).toContain(`/blog/${POST}`);
    expect(s.lines.join('\n')).toMatch(new RegExp(`${POST}\\.md changed → \\d+ changed, 0 added, 0 removed in \\d+ ms`));
    expect(s.lines.join('\n')).toContain(`~ blog/${POST}.html`);
    const page = await (await fetch(`${s.dev.url}/blog/${POST}`)).text();
    expect(page).toContain('A paragraph written while folio dev was watching.');
    await expect.poll(() => stream.events.length).toBeGreaterThan(0);
    stream.stop();
    expect(stream.events[0]).toMatchObject({ all: false });
    expect((stream.events[0] as { targets: string[] }).targets).toContain(`/blog/${POST}`);
    expect(await devTraces(s.out)).toEqual([]);
    await s.expectSameAsClean();
  });

  it('adds and removes files for a new post, and keeps the last good build while the content is broken', SLOW, async () => {
    const added = s.nextRebuild();
    await writeFile(
      join(s.content, 'posts/written-in-dev.md'),
      '---\ntitle: Written in dev\ndate: 2026-11-21\ntags: [email]\n---\n\nA post written while folio dev was watching.\n',
    );
    const a = await added;
    expect(a.files.added).toContain('blog/written-in-dev.html');
    expect((await fetch(`${s.dev.url}/blog/written-in-dev`)).status).toBe(200);

    const before = await treeHash(s.out);
    const broken = s.nextRebuild();
    await writeFile(join(s.content, 'posts/written-in-dev.md'), '---\ndate: 2026-11-21\n---\n\nNo title now.\n');
    const b = await broken;
    expect(b.ok).toBe(false);
    expect(b.problems[0]!.message).toContain('`title`');
    expect(s.lines.join('\n')).toContain('still serving the last good build');
    const page = await fetch(`${s.dev.url}/blog/${POST}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(500);
    expect(await page.text()).toContain('written-in-dev.md:1:1');
    expect(await treeHash(s.out)).toEqual(before);

    const removed = s.nextRebuild();
    await rm(join(s.content, 'posts/written-in-dev.md'));
    const r = await removed;
    expect(r.ok).toBe(true);
    expect(r.sources.removed).toHaveLength(1);
    expect(r.files.removed).toContain('blog/written-in-dev.html');
    for (const file of ['blog/written-in-dev.html', 'blog/written-in-dev.md', 'api/v1/posts/written-in-dev.json'])
      expect(existsSync(join(s.out, file)), file).toBe(false);
    expect((await fetch(`${s.dev.url}/blog/written-in-dev`)).status).toBe(404);
    await s.expectSameAsClean();
  });

  it("reports a broken link that a post's body edit adds, at its line, and keeps the last good build (D2)", SLOW, async () => {
    const file = join(s.content, 'posts', `${POST}.md`);
    const original = await readFile(file, 'utf8');
    await s.dev.idle();
    const before = await treeHash(s.out);
    const broken = s.nextRebuild();
    await writeFile(file, `${original}\nSee [the missing post](/blog/no-such-post).\n`);
    const b = await broken;
    expect(b.ok).toBe(false);
    const line = `${original}\n`.split('\n').length;
    expect(b.problems).toEqual([
      expect.objectContaining({
        file: expect.stringContaining(`${POST}.md`),
        line,
        message: expect.stringContaining('/blog/no-such-post'),
      }),
    ]);
    expect(await treeHash(s.out)).toEqual(before);
    const fixed = s.nextRebuild();
    await writeFile(file, original);
    expect((await fixed).ok).toBe(true);
    await s.dev.idle();
    await s.expectSameAsClean();
  });
});
