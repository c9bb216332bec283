// folio dev while it rebuilds (D1): every request gets a whole reply; a
// post's own responses are served first and the lists and feeds after; a
// change that arrives meanwhile takes over what the last rebuild left, and
// the output still ends as a clean build's.
import { existsSync } from 'node:fs';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { devSession, pause, POST, SLOW } from './helpers/dev-session.js';

const s = devSession('folio-dev-rebuilding-');

describe('folio dev', () => {
  it('keeps answering while it rebuilds: every request gets a whole 200 reply', SLOW, async () => {
    const statuses: number[] = [];
    const failures: string[] = [];
    let polling = true;
    const poll = (async () => {
      // Bounded in count and time; a pause between requests leaves the CPU
      // to the rebuild (test/dev-clients.test.ts is the one that floods).
      for (let i = 0; polling && i < 5000; i++, await pause()) {
        try {
          const res = await fetch(`${s.dev.url}/api/v1/posts/${POST}`, { signal: AbortSignal.timeout(60_000) });
          const body = await res.text();
          statuses.push(res.status);
          if (res.status === 200) JSON.parse(body);
        } catch (error) {
          failures.push(String(error));
        }
      }
    })();
    for (let edit = 0; edit < 3; edit++) {
      const next = s.nextRebuild();
      await appendFile(join(s.content, 'posts', `${POST}.md`), `\nEdit ${edit} while a client polls.\n`);
      expect((await next).ok, s.lines.join('\n')).toBe(true);
    }
    polling = false;
    await poll;
    expect(failures).toEqual([]);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const after = await fetch(`${s.dev.url}/api/v1/posts/${POST}`);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('Edit 2 while a client polls.');
  });

  it('leaves the artifacts to the next rebuild when another change waits, and still ends as a clean build', SLOW, async () => {
    await writeFile(
      join(s.content, 'posts/short-lived.md'),
      '---\ntitle: Short-lived\ndate: 2026-11-21\ntags: [email]\n---\n\nA post that is about to go.\n',
    );
    await s.dev.rebuild(['posts/short-lived.md']);
    // The watcher's batch for that write, which waited behind it, runs too; then nothing waits.
    await s.dev.idle();
    // Two changes in a row: the second is queued while the first is still being served.
    await rm(join(s.content, 'posts/short-lived.md'));
    const first = s.dev.rebuild(['posts/short-lived.md']);
    await new Promise((ok) => setImmediate(ok));
    await appendFile(join(s.content, 'posts', `${POST}.md`), '\nAn edit that arrived while the last one was being written.\n');
    const second = s.dev.rebuild([`posts/${POST}.md`]);
    const [a, b] = await Promise.all([first, second]);
    expect(a.files.removed).toContain('blog/short-lived.html');
    expect(a.totalMs, 'the first rebuild left its artifacts to the next').toBeUndefined();
    expect(b.ok).toBe(true);
    // The watcher saw both files change too; once it has caught up, the output is a clean build's.
    await s.dev.idle();
    for (const file of ['blog/short-lived.html', 'blog/short-lived.md', 'api/v1/posts/short-lived.json'])
      expect(existsSync(join(s.out, file)), file).toBe(false);
    await s.expectSameAsClean();
  });

  it(
    "serves a post's body edit from its own responses first, then the rest; a change that waits takes the rest over, even one that undoes the edit",
    SLOW,
    async () => {
      const file = join(s.content, 'posts', `${POST}.md`);
      const original = await readFile(file, 'utf8');
      await s.dev.idle();
      const statuses: (number | string)[] = [];
      let polling = true;
      const poll = (async () => {
        for (let i = 0; polling && i < 5000; i++, await pause()) {
          statuses.push(
            await fetch(`${s.dev.url}/api/v1/posts/${POST}`, { signal: AbortSignal.timeout(60_000) }).then(
              (res) => res.arrayBuffer().then(() => res.status),
              (error: Error) => error.message,
            ),
          );
        }
      })();
      const mark = s.lines.length;
      const next = s.nextRebuild();
      await writeFile(file, `${original}\nA body edit, served before the lists and feeds.\n`);
      const r = await next;
      polling = false;
      await poll;
      expect(r.ok, s.lines.join('\n')).toBe(true);
      expect(r.full).toBeNull();
      // The post's own files come first, then the shared ones that show its body.
      expect(r.files.changed.slice(0, 3).sort()).toEqual([`api/v1/posts/${POST}.json`, `blog/${POST}.html`, `blog/${POST}.md`]);
      expect(r.files.changed).toContain('feed.xml');
      expect(r.files.changed).toContain('llms-full.txt');
      expect(r.totalMs).toBeGreaterThan(r.ms);
      expect(s.lines.slice(mark).join('\n')).toMatch(
        /→ 3 changed, 0 added, 0 removed in \d+ ms\n(.*\n)*.*then \d+ more files .* in \d+ ms/,
      );
      expect(await (await fetch(`${s.dev.url}/api/v1/posts/${POST}`)).text()).toContain('A body edit, served before the lists and feeds.');
      // The server took the new model and manifest in place: no request ever saw a restart.
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      await s.dev.idle();
      await s.expectSameAsClean();

      // The second change arrives while the first one's lists and feeds wait: they are left to it.
      const edited = s.lines.length;
      const first = s.nextRebuild();
      await writeFile(file, `${original}\nAn edit about to be undone.\n`);
      await expect.poll(() => s.lines.slice(edited).some((l) => / → 3 changed/.test(l)), { timeout: 60_000, interval: 2 }).toBe(true);
      const second = s.nextRebuild();
      await writeFile(file, original);
      const a = await first;
      expect(a.totalMs, 'the first rebuild left the rest to the next').toBeUndefined();
      expect(s.lines.slice(edited).join('\n')).toContain('left to its rebuild');
      expect((await second).ok).toBe(true);
      await s.dev.idle();
      expect(await (await fetch(`${s.dev.url}/api/v1/posts/${POST}`)).text()).not.toContain('An edit about to be undone.');
      await s.expectSameAsClean();
    },
  );

  it(
    "serves a post's title edit from its own responses first too, then asks for the shared responses and related posts",
    SLOW,
    async () => {
      const file = join(s.content, 'posts', `${POST}.md`);
      await s.dev.idle();
      const next = s.nextRebuild();
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: .*$/m, 'title: "Bounce handling, retitled in dev"'));
      const r = await next;
      expect(r.ok, s.lines.join('\n')).toBe(true);
      // Its tags and place in the order are the same: not a full rebuild.
      expect(r.full).toBeNull();
      expect(r.files.changed.slice(0, 3).sort()).toEqual([`api/v1/posts/${POST}.json`, `blog/${POST}.html`, `blog/${POST}.md`]);
      // Lists show the title.
      expect(r.files.changed).toContain('blog.html');
      expect(await (await fetch(`${s.dev.url}/blog`)).text()).toContain('Bounce handling, retitled in dev');
      await s.dev.idle();
      await s.expectSameAsClean();
    },
  );
});
