// folio dev (D1): builds, serves, watches content/, rebuilds in place
// and says what changed; an open page reloads when its bytes change. The
// output stays exactly a clean build's: the live-reload script exists only
// in responses of the dev server, never in a file.
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devPolicy, startDev, withLiveReload, type DevSession } from '../build/dev.js';
import { startTestDev, type TestDev } from './helpers/dev.js';
import { build } from '../build/emit/build.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';
import { HAS_CHROMIUM, launchChromium } from './helpers/browser.js';

const SLOW = { timeout: 240_000 };
const POST = 'bounce-handling';

let work: string;
let content: string;
let out: string;
let dev: DevSession;
let lines: string[];
let nextRebuild: TestDev['nextRebuild'];

beforeAll(async () => {
  work = await tempDir('folio-dev-');
  content = await copyContent();
  out = join(work, 'dist');
  ({ dev, lines, nextRebuild } = await startTestDev(content, out, join(work, '.folio-cache')));
}, 240_000);
afterAll(async () => {
  await dev?.close();
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

/** Time between a poller's requests: about a hundred requests a second, enough to land many in every rebuild. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 10));

/** Every file of the output, as text, that mentions the dev server's own addresses. */
async function devTraces(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path, 'utf8')).includes('/_folio/dev/')) found.push(path);
  }
  return found;
}

async function expectSameAsClean(): Promise<void> {
  const clean = join(work, `clean-${Date.now()}`);
  await cleanBuild({ content, out: clean, now: NOW });
  expect(await treeHash(out)).toEqual(await treeHash(clean));
  await rm(clean, { recursive: true, force: true });
}

/** Reads server-sent events of one type from the dev server, until `stop` says enough. */
async function collectEvents(url: string, type: string): Promise<{ events: unknown[]; stop(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: unknown[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === type && data) events.push(JSON.parse(data));
        }
      }
    } catch {
      // aborted
    }
  })();
  return { events, stop: () => controller.abort() };
}

describe('folio dev', () => {
  it('serves the build with the reload script and a policy that allows only it', async () => {
    const response = await fetch(`${dev.url}/blog/${POST}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<script src="/_folio/dev/reload.js" defer></script>');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("default-src 'none'");
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1]!.replaceAll('&#39;', "'");
    expect(meta).toContain("default-src 'none'; ");
    expect(meta).toContain("; connect-src 'self'");
    expect(meta).toMatch(/; script-src 'self'$/);
    const script = await fetch(`${dev.url}/_folio/dev/reload.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('EventSource');
    // Everything else passes through untouched: JSON, twins.
    const api = await fetch(`${dev.url}/api/v1/posts/${POST}`);
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await api.text()).not.toContain('_folio/dev');
    expect(await devTraces(out)).toEqual([]);
  });

  it('widens an existing script-src instead of adding a second one', () => {
    expect(devPolicy("default-src 'none'; script-src https://example.com")).toBe(
      "default-src 'none'; script-src https://example.com 'self'; connect-src 'self'",
    );
    expect(withLiveReload('<p>no body tag</p>')).toContain('reload.js');
  });

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

  it('tells every open page to reload when the content builds again, even when the fix brings back the last good bytes', SLOW, async () => {
    const file = join(content, 'posts', `${POST}.md`);
    const good = await readFile(file, 'utf8');
    const html = { headers: { accept: 'text/html' } };
    const stream = await collectEvents(`${dev.url}/_folio/dev/events`, 'change');
    /** Waits until the watcher has caught up and no late event can come, and returns how many events came. */
    const settled = async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await dev.idle();
      return stream.events.length;
    };
    /** Breaks the post's YAML front matter: every page shows the problem list. */
    const breakIt = async () => {
      const broken = nextRebuild();
      await writeFile(file, good.replace(/^title: (.*)$/m, 'title: [$1'));
      expect((await broken).ok).toBe(false);
      await expect.poll(() => stream.events.at(-1)).toEqual({ all: true, targets: [] });
      expect((await fetch(`${dev.url}/about`, html)).status).toBe(500);
      return settled();
    };
    try {
      await settled();
      // Restored exactly: no output file changes, but every open page shows the problem list.
      const before = await breakIt();
      const restored = nextRebuild();
      await writeFile(file, good);
      const r = await restored;
      expect(r.ok, lines.join('\n')).toBe(true);
      expect(r.targets).toEqual([]);
      await expect.poll(() => stream.events.length).toBeGreaterThan(before);
      expect(stream.events.slice(before)).toEqual([{ all: true, targets: [] }]);
      expect((await fetch(`${dev.url}/about`, html)).status).toBe(200);

      // Fixed differently: the post's own pages changed, but a page open at /about showed the problem list too.
      const again = await breakIt();
      const fixed = nextRebuild();
      await writeFile(file, `${good}\nA paragraph added with the fix.\n`);
      const f = await fixed;
      expect(f.ok, lines.join('\n')).toBe(true);
      expect(f.targets).not.toContain('/about');
      await expect.poll(() => stream.events.length).toBeGreaterThan(again);
      expect(stream.events.at(-1)).toEqual({ all: true, targets: [] });
    } finally {
      stream.stop();
      await writeFile(file, good);
      await settled();
    }
  });

  it(
    'publishes a file added to content/static/ and a content/theme.css edit as they happen (D43, D46), as a clean build would',
    SLOW,
    async () => {
      const added = nextRebuild();
      await writeFile(join(content, 'static/notes.txt'), 'first\n');
      const a = await added;
      expect(
        a.sources.added.some((f) => f.endsWith('static/notes.txt')),
        JSON.stringify(a.sources),
      ).toBe(true);
      const notes = await fetch(`${dev.url}/notes.txt`);
      expect(notes.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await notes.text()).toBe('first\n');

      const themed = nextRebuild();
      await writeFile(join(content, 'theme.css'), '.brand { letter-spacing: 0.02em; }\n');
      await themed;
      expect(await (await fetch(`${dev.url}/assets/theme.css`)).text()).toContain('.brand { letter-spacing: 0.02em; }');
      await expectSameAsClean();

      const removed = nextRebuild();
      await rm(join(content, 'static/notes.txt'));
      await removed;
      expect((await fetch(`${dev.url}/notes.txt`)).status).toBe(404);
      const unthemed = nextRebuild();
      await rm(join(content, 'theme.css'));
      await unthemed;
      expect(await (await fetch(`${dev.url}/assets/theme.css`)).text()).not.toContain('letter-spacing');
    },
  );

  it('keeps answering while it rebuilds: every request gets a whole 200 reply', SLOW, async () => {
    const statuses: number[] = [];
    const failures: string[] = [];
    let polling = true;
    const poll = (async () => {
      // Bounded in count and time; a pause between requests leaves the CPU
      // to the rebuild (test/dev-clients.test.ts is the one that floods).
      for (let i = 0; polling && i < 5000; i++, await pause()) {
        try {
          const res = await fetch(`${dev.url}/api/v1/posts/${POST}`, { signal: AbortSignal.timeout(60_000) });
          const body = await res.text();
          statuses.push(res.status);
          if (res.status === 200) JSON.parse(body);
        } catch (error) {
          failures.push(String(error));
        }
      }
    })();
    for (let edit = 0; edit < 3; edit++) {
      const next = nextRebuild();
      await appendFile(join(content, 'posts', `${POST}.md`), `\nEdit ${edit} while a client polls.\n`);
      expect((await next).ok, lines.join('\n')).toBe(true);
    }
    polling = false;
    await poll;
    expect(failures).toEqual([]);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const after = await fetch(`${dev.url}/api/v1/posts/${POST}`);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('Edit 2 while a client polls.');
  });

  it('leaves the artifacts to the next rebuild when another change waits, and still ends as a clean build', SLOW, async () => {
    await writeFile(
      join(content, 'posts/short-lived.md'),
      '---\ntitle: Short-lived\ndate: 2026-11-21\ntags: [email]\n---\n\nA post that is about to go.\n',
    );
    await dev.rebuild(['posts/short-lived.md']);
    // The watcher's batch for that write, which waited behind it, runs too; then nothing waits.
    await dev.idle();
    // Two changes in a row: the second is queued while the first is still being served.
    await rm(join(content, 'posts/short-lived.md'));
    const first = dev.rebuild(['posts/short-lived.md']);
    await new Promise((ok) => setImmediate(ok));
    await appendFile(join(content, 'posts', `${POST}.md`), '\nAn edit that arrived while the last one was being written.\n');
    const second = dev.rebuild([`posts/${POST}.md`]);
    const [a, b] = await Promise.all([first, second]);
    expect(a.files.removed).toContain('blog/short-lived.html');
    expect(a.totalMs, 'the first rebuild left its artifacts to the next').toBeUndefined();
    expect(b.ok).toBe(true);
    // The watcher saw both files change too; once it has caught up, the output is a clean build's.
    await dev.idle();
    for (const file of ['blog/short-lived.html', 'blog/short-lived.md', 'api/v1/posts/short-lived.json'])
      expect(existsSync(join(out, file)), file).toBe(false);
    await expectSameAsClean();
  });

  it(
    "serves a post's body edit from its own responses first, then the rest; a change that waits takes the rest over, even one that undoes the edit",
    SLOW,
    async () => {
      const file = join(content, 'posts', `${POST}.md`);
      const original = await readFile(file, 'utf8');
      await dev.idle();
      const statuses: (number | string)[] = [];
      let polling = true;
      const poll = (async () => {
        for (let i = 0; polling && i < 5000; i++, await pause()) {
          statuses.push(
            await fetch(`${dev.url}/api/v1/posts/${POST}`, { signal: AbortSignal.timeout(60_000) }).then(
              (res) => res.arrayBuffer().then(() => res.status),
              (error: Error) => error.message,
            ),
          );
        }
      })();
      const mark = lines.length;
      const next = nextRebuild();
      await writeFile(file, `${original}\nA body edit, served before the lists and feeds.\n`);
      const r = await next;
      polling = false;
      await poll;
      expect(r.ok, lines.join('\n')).toBe(true);
      expect(r.full).toBeNull();
      // The post's own files come first, then the shared ones that show its body.
      expect(r.files.changed.slice(0, 3).sort()).toEqual([`api/v1/posts/${POST}.json`, `blog/${POST}.html`, `blog/${POST}.md`]);
      expect(r.files.changed).toContain('feed.xml');
      expect(r.files.changed).toContain('llms-full.txt');
      expect(r.totalMs).toBeGreaterThan(r.ms);
      expect(lines.slice(mark).join('\n')).toMatch(/→ 3 changed, 0 added, 0 removed in \d+ ms\n(.*\n)*.*then \d+ more files .* in \d+ ms/);
      expect(await (await fetch(`${dev.url}/api/v1/posts/${POST}`)).text()).toContain('A body edit, served before the lists and feeds.');
      // The server took the new model and manifest in place: no request ever saw a restart.
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      await dev.idle();
      await expectSameAsClean();

      // The second change arrives while the first one's lists and feeds wait: they are left to it.
      const edited = lines.length;
      const first = nextRebuild();
      await writeFile(file, `${original}\nAn edit about to be undone.\n`);
      await expect.poll(() => lines.slice(edited).some((l) => / → 3 changed/.test(l)), { timeout: 60_000, interval: 2 }).toBe(true);
      const second = nextRebuild();
      await writeFile(file, original);
      const a = await first;
      expect(a.totalMs, 'the first rebuild left the rest to the next').toBeUndefined();
      expect(lines.slice(edited).join('\n')).toContain('left to its rebuild');
      expect((await second).ok).toBe(true);
      await dev.idle();
      expect(await (await fetch(`${dev.url}/api/v1/posts/${POST}`)).text()).not.toContain('An edit about to be undone.');
      await expectSameAsClean();
    },
  );

  it(
    "serves a post's title edit from its own responses first too, then asks for the shared responses and related posts",
    SLOW,
    async () => {
      const file = join(content, 'posts', `${POST}.md`);
      await dev.idle();
      const next = nextRebuild();
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: .*$/m, 'title: "Bounce handling, retitled in dev"'));
      const r = await next;
      expect(r.ok, lines.join('\n')).toBe(true);
      // Its tags and place in the order are the same: not a full rebuild.
      expect(r.full).toBeNull();
      expect(r.files.changed.slice(0, 3).sort()).toEqual([`api/v1/posts/${POST}.json`, `blog/${POST}.html`, `blog/${POST}.md`]);
      // Lists show the title.
      expect(r.files.changed).toContain('blog.html');
      expect(await (await fetch(`${dev.url}/blog`)).text()).toContain('Bounce handling, retitled in dev');
      await dev.idle();
      await expectSameAsClean();
    },
  );

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

  describe.skipIf(!HAS_CHROMIUM)('in a real browser', () => {
    let browser: Awaited<ReturnType<typeof launchChromium>>;
    let context: BrowserContext;
    beforeAll(async () => {
      browser = await launchChromium();
      context = browser.context;
    }, 120_000);
    afterAll(() => browser?.close());

    it('reloads an open page when its content changes, with no CSP violation', SLOW, async () => {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      await page.goto(`${dev.url}/blog/${POST}`);
      // The event stream is open before the edit.
      await page.waitForFunction(() => document.documentElement.dataset.folioDev === 'connected');
      const reloaded = page.waitForEvent('load', { timeout: 60_000 });
      await appendFile(join(content, 'posts', `${POST}.md`), '\nSeen by the browser after a reload.\n');
      await reloaded;
      await expect.poll(() => page.content()).toContain('Seen by the browser after a reload.');
      expect(errors).toEqual([]);
      await page.close();
    });
  });
  it('serves an image added to a post (D44) from the edit, and ends as a clean build', SLOW, async () => {
    // Whatever the test before left to rebuild is done first.
    await dev.idle();
    const file = join(content, 'posts/retiring-pid-files.md');
    const original = await readFile(file, 'utf8');
    const rebuilt = nextRebuild();
    await writeFile(file, `${original.trimEnd()}\n\n![The affected-only pipeline](./img/affected-pipeline.svg)\n`);
    const report = await rebuilt;
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
    const html = await (await fetch(`${dev.url}/blog/retiring-pid-files`)).text();
    const src = /<img src="(\/media\/[0-9a-f]{20}\.svg)" width="960" height="330" alt="The affected-only pipeline"/.exec(html)?.[1];
    expect(src, `${JSON.stringify(report)}\n${html.match(/<img[^>]*>/g)}`).toBeDefined();
    const svg = await fetch(`${dev.url}${src}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(await (await fetch(`${dev.url}/blog/retiring-pid-files.md`)).text()).toContain(`(https://hannabrink.example${src})`);
    await dev.idle();
    await expectSameAsClean();
  });
  it('rebuilds when an image file changes (D44): the post shows the new bytes at a new address', SLOW, async () => {
    await dev.idle();
    const before = await (await fetch(`${dev.url}/blog/retiring-pid-files`)).text();
    const old = /<img src="(\/media\/[0-9a-f]{20}\.svg)"[^>]*alt="The affected-only pipeline"/.exec(before)?.[1];
    expect(old).toBeDefined();
    const rebuilt = nextRebuild();
    await writeFile(
      join(content, 'posts/img/affected-pipeline.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#def"/></svg>',
    );
    const report = await rebuilt;
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
    await dev.idle();
    const after = await (await fetch(`${dev.url}/blog/retiring-pid-files`)).text();
    const next = /<img src="(\/media\/[0-9a-f]{20}\.svg)" width="200" height="100" alt="The affected-only pipeline"/.exec(after)?.[1];
    expect(next, after.match(/<img[^>]*>/g)?.join('\n')).toBeDefined();
    expect(next).not.toBe(old);
    expect((await fetch(`${dev.url}${next}`)).status).toBe(200);
    await expectSameAsClean();
  });

  it('rebuilds for a static file under a dot-folder, and in a folder made during the session (D43)', SLOW, async () => {
    await dev.idle();
    let rebuilt = nextRebuild();
    await appendFile(join(content, 'static/.well-known/security.txt'), 'Preferred-Languages: en\n');
    expect((await rebuilt).ok).toBe(true);
    await dev.idle();
    expect(await (await fetch(`${dev.url}/.well-known/security.txt`)).text()).toContain('Preferred-Languages: en');
    rebuilt = nextRebuild();
    await mkdir(join(content, 'static/docs'));
    await writeFile(join(content, 'static/docs/a.txt'), 'one\n');
    await rebuilt;
    await dev.idle();
    expect(await (await fetch(`${dev.url}/docs/a.txt`)).text()).toBe('one\n');
    // The folder did not exist when the session started: a change in it is seen all the same.
    rebuilt = nextRebuild();
    await writeFile(join(content, 'static/docs/a.txt'), 'two\n');
    await rebuilt;
    await dev.idle();
    expect(await (await fetch(`${dev.url}/docs/a.txt`)).text()).toBe('two\n');
    await expectSameAsClean();
  });
});

describe('folio dev with a record of earlier builds (D61)', () => {
  it('keeps the changes the record holds through its rebuilds, as folio build does', SLOW, async () => {
    const dir = await tempDir('folio-dev-history-');
    const site = await copyContent();
    const dist = join(dir, 'dist');
    const cache = join(dir, '.folio-cache');
    try {
      await build({ content: site, out: dist, now: NOW, cache });
      await rm(join(site, 'posts/short-lived-ssh-certificates.md'));
      await build({ content: site, out: dist, now: NOW, cache });
      const removed = (entries: { id: string; change: string }[]) => entries.filter((e) => e.change === 'removed').map((e) => e.id);
      const listed = async () =>
        (JSON.parse(await readFile(join(dist, 'api/v1/changes.json'), 'utf8')) as { data: { id: string; change: string }[] }).data;
      expect(removed(await listed())).toEqual(['short-lived-ssh-certificates']);
      const session = await startDev({
        content: site,
        out: dist,
        now: NOW,
        cache,
        port: 0,
        host: '127.0.0.1',
        log: () => {},
        debounceMs: 60,
      });
      try {
        expect(removed(await listed())).toEqual(['short-lived-ssh-certificates']);
        // A change outside the posts: the whole model is assembled again.
        const rebuilt = session.nextRebuild();
        const project = join(site, 'projects/jumpcfg.md');
        await writeFile(project, (await readFile(project, 'utf8')).replace(/^status: .*$/m, 'status: sunset'));
        expect((await rebuilt).ok).toBe(true);
        await session.idle();
        expect(removed(await listed())).toEqual(['short-lived-ssh-certificates']);
      } finally {
        await session.close();
      }
      // And the same bytes as folio build makes of that output with that cache.
      const fromDev = await treeHash(dist);
      await build({ content: site, out: dist, now: NOW, cache });
      expect(await treeHash(dist)).toEqual(fromDev);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(site, { recursive: true, force: true });
    }
  });
});
