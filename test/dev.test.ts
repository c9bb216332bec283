// folio dev (D1): builds, serves, watches content/, rebuilds in place and
// says what changed. A post added, edited or removed ends as a clean build
// would; broken content or a broken link (D2) is reported at its line while
// the last good build stays in place.
import { existsSync } from 'node:fs';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevSession } from '../build/dev.js';
import type { TestDev } from './helpers/dev.js';
import { collectEvents, devTraces, openDevSession, POST, SLOW, type DevSessionFixture } from './helpers/dev-session.js';
import { treeHash } from './helpers/site.js';

let session: DevSessionFixture;
let content: string;
let out: string;
let dev: DevSession;
let lines: string[];
let nextRebuild: TestDev['nextRebuild'];
const expectSameAsClean = () => session.expectSameAsClean();

beforeAll(async () => {
  session = await openDevSession('folio-dev-');
  ({ content, out, dev, lines, nextRebuild } = session);
}, 240_000);
afterAll(() => session?.close());

describe('folio dev', () => {
  it('rebuilds on a change, says what changed, tells open pages, and matches a clean build', SLOW, async () => {
    const stream = await collectEvents(`${dev.url}/_folio/dev/events`, 'change');
    const next = nextRebuild();
    await appendFile(join(content, 'posts', `${POST}.md`), '\nA paragraph written while folio dev was watching.\n');
    const report = await next;
    expect(report.ok, lines.join('\n')).toBe(true);
    expect(report.full).toBeNull();
    expect(report.sources.changed).toEqual([relative(process.cwd(), join(content, 'posts', `${POST}.md`))]);
    expect(report.files.changed).toContain(`blog/${POST}.html`);
    expect(report.files.changed).not.toContain('blog/proxyjump-over-bastions.html');
    expect(report.targets).toContain(`/blog/${POST}`);
    expect(lines.join('\n')).toMatch(new RegExp(`${POST}\\.md changed → \\d+ changed, 0 added, 0 removed in \\d+ ms`));
    expect(lines.join('\n')).toContain(`~ blog/${POST}.html`);
    const page = await (await fetch(`${dev.url}/blog/${POST}`)).text();
    expect(page).toContain('A paragraph written while folio dev was watching.');
    await expect.poll(() => stream.events.length).toBeGreaterThan(0);
    stream.stop();
    expect(stream.events[0]).toMatchObject({ all: false });
    expect((stream.events[0] as { targets: string[] }).targets).toContain(`/blog/${POST}`);
    expect(await devTraces(out)).toEqual([]);
    await expectSameAsClean();
  });

  it('adds and removes files for a new post, and keeps the last good build while the content is broken', SLOW, async () => {
    const added = nextRebuild();
    await writeFile(
      join(content, 'posts/written-in-dev.md'),
      '---\ntitle: Written in dev\ndate: 2026-11-21\ntags: [email]\n---\n\nA post written while folio dev was watching.\n',
    );
    const a = await added;
    expect(a.files.added).toContain('blog/written-in-dev.html');
    expect((await fetch(`${dev.url}/blog/written-in-dev`)).status).toBe(200);

    const before = await treeHash(out);
    const broken = nextRebuild();
    await writeFile(join(content, 'posts/written-in-dev.md'), '---\ndate: 2026-11-21\n---\n\nNo title now.\n');
    const b = await broken;
    expect(b.ok).toBe(false);
    expect(b.problems[0]!.message).toContain('`title`');
    expect(lines.join('\n')).toContain('still serving the last good build');
    const page = await fetch(`${dev.url}/blog/${POST}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(500);
    expect(await page.text()).toContain('written-in-dev.md:1:1');
    expect(await treeHash(out)).toEqual(before);

    const removed = nextRebuild();
    await rm(join(content, 'posts/written-in-dev.md'));
    const r = await removed;
    expect(r.ok).toBe(true);
    expect(r.sources.removed).toHaveLength(1);
    expect(r.files.removed).toContain('blog/written-in-dev.html');
    for (const file of ['blog/written-in-dev.html', 'blog/written-in-dev.md', 'api/v1/posts/written-in-dev.json'])
      expect(existsSync(join(out, file)), file).toBe(false);
    expect((await fetch(`${dev.url}/blog/written-in-dev`)).status).toBe(404);
    await expectSameAsClean();
  });

  it("reports a broken link that a post's body edit adds, at its line, and keeps the last good build (D2)", SLOW, async () => {
    const file = join(content, 'posts', `${POST}.md`);
    const original = await readFile(file, 'utf8');
    await dev.idle();
    const before = await treeHash(out);
    const broken = nextRebuild();
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
    expect(await treeHash(out)).toEqual(before);
    const fixed = nextRebuild();
    await writeFile(file, original);
    expect((await fixed).ok).toBe(true);
    await dev.idle();
    await expectSameAsClean();
  });
});
