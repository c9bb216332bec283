// folio check (D1, D2): the build's validation with nothing written, not even
// its cache; exit codes for CI (0 clean, 1 problems, 2 usage) and the --json
// report, run from a working folder of its own over copies of the sample.
import { appendFile, copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folioIn } from './helpers/cli.js';
import { workspace } from './helpers/workspace.js';
import { treeHash } from './helpers/site.js';

const SLOW = { timeout: 120_000 };

const work = workspace('folio-check-cwd-');
const content = () => work.content();

describe('folio check', () => {
  it('passes the sample content with exit 0 and writes nothing, not even a cache', SLOW, async () => {
    const dir = await content();
    const before = await treeHash(dir);
    const r = await folioIn(['check', '--content', dir, '--now', '2026-11-22'], work.cwd);
    expect(r.code, r.stderr).toBe(0);
    // The sample holds one draft and one post dated after this clock: the summary says so, naming the clock's day.
    expect(r.stdout).toMatch(
      /^folio: content is valid: \d+ files \(17 published posts, 11 projects, 5 services\), \d+ links checked\.\nfolio: not published by the build clock \(2026-11-22, UTC\): 1 draft; 1 dated after that day \(selling-a-small-saas-across-the-eu-vat on 2027-03-01\)\.\n$/,
    );
    expect(await readdir(work.cwd)).toEqual([]);
    expect(await treeHash(dir)).toEqual(before);
    const json = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, problems: [], warnings: [] });
  });

  it("reads a build's cache with --cache-dir and never writes it; an image the cache has not seen is still decoded", SLOW, async () => {
    const dir = await content();
    const cache = join(work.cwd, 'cache');
    const built = await folioIn(
      ['build', '--content', dir, '--out', join(work.cwd, 'dist'), '--cache-dir', cache, '--now', '2026-11-22'],
      work.cwd,
    );
    expect(built.code, built.stderr).toBe(0);
    const warm = await treeHash(cache);
    const ok = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--cache-dir', cache], work.cwd);
    expect(ok.code, ok.stderr).toBe(0);
    // A known image at a new path: a build would record the path in the cache; a check does not.
    await copyFile(join(dir, 'posts/img/proxyjump-session.png'), join(dir, 'posts/img/copy.png'));
    await appendFile(join(dir, 'posts/bounce-handling.md'), '\n![The same figure again](./img/copy.png)\n');
    const copied = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--cache-dir', cache], work.cwd);
    expect(copied.code, copied.stderr).toBe(0);
    expect(await treeHash(cache)).toEqual(warm);
    // A new image that does not decode: not in the cache, so sharp reads it and the check fails.
    await writeFile(join(dir, 'posts/img/new.png'), 'not a png');
    await appendFile(join(dir, 'posts/bounce-handling.md'), '\n![A new figure](./img/new.png)\n');
    const bad = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--cache-dir', cache], work.cwd);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/posts\/bounce-handling\.md:\d+:1: The image \.\/img\/new\.png cannot be used: /);
    expect(await treeHash(cache)).toEqual(warm);
    await rm(join(work.cwd, 'dist'), { recursive: true });
    await rm(cache, { recursive: true });
  });

  it('passes over a folder named like a content file (posts/drafts.md/), and --json stays one JSON document', SLOW, async () => {
    const dir = await content();
    await mkdir(join(dir, 'posts/drafts.md'), { recursive: true });
    await writeFile(join(dir, 'posts/drafts.md/idea.md'), '---\ntitle: Not a post\n---\n');
    const r = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, problems: [] });
  });

  it('reports content problems as folio build does, with exit 1, in text or JSON', SLOW, async () => {
    const dir = await content();
    const post = join(dir, 'posts/bounce-handling.md');
    await writeFile(post, (await readFile(post, 'utf8')).replace(/^title: .*\n/m, '').replace('date: 2024-10-14', 'date: 2024-13-14'));
    const text = await folioIn(['check', '--content', dir, '--now', '2026-11-22'], work.cwd);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    const built = await folioIn(['build', '--content', dir, '--out', join(work.cwd, 'never'), '--now', '2026-11-22'], work.cwd);
    expect(built.code).toBe(1);
    // The same problems, in the same words, in the same order.
    const problems = (s: string) => s.split('\n').filter((l) => /^\S+:\d+:\d+: /.test(l) || l.startsWith('  hint: '));
    expect(problems(text.stderr)).toEqual(problems(built.stderr));
    expect(problems(text.stderr)).toHaveLength(4);
    expect(text.stderr).toContain('folio: 2 problems found; nothing was written.');
    // The checks across files wait for the files to read cleanly, and both commands say so.
    for (const out of [text.stderr, built.stderr])
      expect(out).toContain('Internal links, static files and aliases are checked once these are fixed.');
    const json = JSON.parse((await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd)).stdout);
    expect(json.problems.map((p: { message: string }) => p.message)).toEqual([
      expect.stringContaining('`title`'),
      expect.stringContaining('`date` is not a date'),
    ]);
    await rm(join(work.cwd, 'never'), { recursive: true, force: true });
  });

  it('exits 2 on usage errors', async () => {
    expect((await folioIn(['check', '--bogus'], work.cwd)).code).toBe(2);
    expect((await folioIn(['check', '--now', 'yesterday'], work.cwd)).code).toBe(2);
    // Before the content folder is looked at (there is none here): the usage error is the one told.
    for (const command of ['build', 'dev']) expect((await folioIn([command, '--now', 'yesterday'], work.cwd)).code, command).toBe(2);
    const help = await folioIn(['check', '--help'], work.cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--json');
  });

  it(
    'refuses, with exit 1 (an input error) and the fix, a content folder that is not there and the site folder above one',
    SLOW,
    async () => {
      const missing = await folioIn(['check', '--content', 'nowhere'], work.cwd);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe(
        'folio: the content folder nowhere does not exist. Pass --content with the folder that holds site.yaml and profile.md, or start one with npx folio init.\n',
      );
      // The folder `folio init my-site` makes, given instead of my-site/content: the same answer from check, build and dev.
      const site = join(work.cwd, 'my-site');
      await cp(await content(), join(site, 'content'), { recursive: true });
      for (const command of [['check'], ['build', '--out', join(site, 'dist')], ['dev', '--port', '0']]) {
        const r = await folioIn([...command, '--content', site], work.cwd);
        expect(r.code, command[0]).toBe(1);
        expect(r.stderr, command[0]).toBe(
          `folio: ${site} holds no site.yaml, but ${join(site, 'content')} does: pass --content ${join(site, 'content')}.\n`,
        );
      }
      expect(await readdir(site)).toEqual(['content']);
      const file = await folioIn(['check', '--content', join(site, 'content', 'site.yaml')], work.cwd);
      expect(file.code).toBe(1);
      expect(file.stderr).toBe(
        `folio: --content ${join(site, 'content', 'site.yaml')} is a file. Pass the folder that holds site.yaml and profile.md.\n`,
      );
    },
  );

  it('refuses a --site-url with a trailing slash as a usage error, naming the value to pass', async () => {
    const r = await folioIn(['build', '--site-url', 'https://ada.example/', '--out', join(work.cwd, 'never')], work.cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '"https://ada.example/" is not an absolute http(s) URL without a trailing slash. Pass e.g. --site-url https://ada.example.',
    );
    const relative = await folioIn(['check', '--site-url', 'ada.example'], work.cwd);
    expect(relative.code).toBe(2);
    expect(relative.stderr).toContain('Pass e.g. --site-url https://ada.example.');
  });
});
