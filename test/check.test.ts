// folio check (D1, D2, D19): the build's validation, nothing written, exit
// codes for CI (0 clean, 1 problems, 2 usage) and a --json report.
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

  it('reports every broken internal link (pages, twins, API addresses, absolute site URLs) at its line and column', SLOW, async () => {
    const dir = await content();
    const post = join(dir, 'posts/bounce-handling.md');
    const lines = (await readFile(post, 'utf8')).split('\n').length;
    await appendFile(
      post,
      [
        '',
        'Good: [a twin](/blog/dmarc-p-reject-rollout.md), [a tag list](/api/v1/posts?tag=email), [the feed](/feed.xml).',
        'Broken: [a twin](/blog/no-such-post.md) and [an API record](/api/v1/posts/no-such-post).',
        '   And [an absolute one](https://hannabrink.example/projects/no-such-project).',
        'And [a file](/files/rates.pdf), [an API list](/api/v1/invoices) and [a twin](/projects/no-such-project.md).',
        '',
      ].join('\n'),
    );
    const r = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      problems: { file: string; line: number; column: number; message: string; hint: string }[];
    };
    expect(report.ok).toBe(false);
    const at = (p: (typeof report.problems)[number]) => `${p.line}:${p.column} ${p.message}`;
    expect(report.problems.map(at)).toEqual([
      `${lines + 2}:9 The link to /blog/no-such-post.md points at a page that does not exist.`,
      `${lines + 2}:45 The link to /api/v1/posts/no-such-post points at a page that does not exist.`,
      `${lines + 3}:8 The link to https://hannabrink.example/projects/no-such-project points at a page that does not exist.`,
      `${lines + 4}:5 The link to /files/rates.pdf points at a page that does not exist.`,
      `${lines + 4}:33 The link to /api/v1/invoices points at a page that does not exist.`,
      `${lines + 4}:69 The link to /projects/no-such-project.md points at a page that does not exist.`,
    ]);
    // Each hint names the item a twin or an API record stands for, or where a file would be published from.
    expect(report.problems.map((p) => p.hint.split(/[.;] /)[0])).toEqual([
      'No published post has the slug "no-such-post"',
      'No published post has the slug "no-such-post"',
      'No project has the id "no-such-project"',
      'No file is published at /files/rates.pdf',
      'The API publishes /api/v1 (its discovery document), posts, projects, services and their records',
      'No project has the id "no-such-project"',
    ]);
    expect(report.problems[3]!.hint).toContain('put it at content/static/files/rates.pdf');
    for (const p of report.problems) {
      expect(Object.keys(p).sort()).toEqual(['column', 'file', 'hint', 'line', 'message']);
      expect(p.file).toMatch(/posts\/bounce-handling\.md$/);
      expect(p.hint.length).toBeGreaterThan(10);
    }
  });

  it(
    'reports every relative link, naming the site-root address it most likely means; fragments, schemes and images pass',
    SLOW,
    async () => {
      const dir = await content();
      await mkdir(join(dir, 'static/files'), { recursive: true });
      await writeFile(join(dir, 'static/files/cv.pdf'), '%PDF-1.4\n');
      const post = join(dir, 'posts/bounce-handling.md');
      const lines = (await readFile(post, 'utf8')).split('\n').length;
      const added = [
        'Fine: [below](#notes), [mail](mailto:hanna@hannabrink.example), [elsewhere](https://example.org/x).',
        'A file: [sibling](./dmarc-p-reject-rollout.md#setup), [project](../projects/jumpcfg.md), [cv](../static/files/cv.pdf).',
        'A page: [sibling](dmarc-p-reject-rollout) and nothing: [gone](./no-such-post.md), [empty]().',
        'An image: [![Pipeline](./img/affected-pipeline.svg)](./img/affected-pipeline.svg), ![Again][pipeline].',
        '',
        '[pipeline]: ./img/affected-pipeline.svg',
      ];
      await appendFile(post, ['', ...added, ''].join('\n'));
      const r = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd);
      expect(r.code).toBe(1);
      const { problems } = JSON.parse(r.stdout) as { problems: { line: number; column: number; message: string; hint: string }[] };
      const at = (row: number, text: string) => `${lines + row}:${added[row - 1]!.indexOf(text) + 1}`;
      expect(problems.map((p) => `${p.line}:${p.column}`)).toEqual([
        at(2, '[sibling]'),
        at(2, '[project]'),
        at(2, '[cv]'),
        at(3, '[sibling]'),
        at(3, '[gone]'),
        at(3, '[empty]'),
        at(4, '[![Pipeline]'),
      ]);
      expect(problems.map((p) => p.message.split(' is relative')[0])).toEqual([
        'The link to ./dmarc-p-reject-rollout.md#setup',
        'The link to ../projects/jumpcfg.md',
        'The link to ../static/files/cv.pdf',
        'The link to dmarc-p-reject-rollout',
        'The link to ./no-such-post.md',
        'This link has no address.',
        'The link to ./img/affected-pipeline.svg',
      ]);
      // A path from the Markdown file's folder, as editors read it, or from the page's address, as browsers do.
      expect(problems.map((p) => p.hint.match(/^Write it from the site root: (\S+)\.$/)?.[1] ?? null)).toEqual([
        '/blog/dmarc-p-reject-rollout#setup',
        '/projects/jumpcfg',
        '/files/cv.pdf',
        '/blog/dmarc-p-reject-rollout',
        null,
        null,
        null,
      ]);
      expect(problems[4]!.hint).toMatch(/^Write internal links from the site root, e\.g\. \/blog\/<slug>/);
      // The image inside the link, and the one whose address is a definition, are images, checked as such (D44).
      expect(problems[6]!.hint).toMatch(/^An image shown with !\[alt\]\(path\) is published at an address of its own/);
    },
  );

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

  it('names the value a quoted or spelled-out boolean reads as, never the opposite', SLOW, async () => {
    const dir = await content();
    const post = join(dir, 'posts/bounce-handling.md');
    const text = await readFile(post, 'utf8');
    const hints: string[] = [];
    for (const value of ['"false"', 'no', '"true"', '2']) {
      await writeFile(post, text.replace('date: 2024-10-14\n', `date: 2024-10-14\ndraft: ${value}\n`));
      const r = JSON.parse((await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd)).stdout);
      expect(r.problems.map((p: { message: string }) => p.message)).toEqual([expect.stringContaining('`draft` must be true or false')]);
      hints.push(r.problems[0].hint);
    }
    expect(hints.map((h) => h.split(' (')[0])).toEqual([
      'Write it as draft: false',
      'Write it as draft: false',
      'Write it as draft: true',
      'Write it as draft: true or draft: false',
    ]);
  });

  it('gives the fix for what went wrong: an open list, a repeated field, an empty file, a day the month lacks', SLOW, async () => {
    const dir = await content();
    const edit = async (file: string, from: string | RegExp, to: string) => {
      const text = await readFile(join(dir, file), 'utf8');
      expect(text.replace(from, to), file).not.toBe(text);
      await writeFile(join(dir, file), text.replace(from, to));
    };
    await edit('posts/bounce-handling.md', /^tags:\n( {2}- .*\n)+/m, 'tags: [email, deliverability\n');
    await edit('site.yaml', /^title: .*$/m, '$&\ntitle: Again');
    await writeFile(join(dir, 'posts/affected-only-builds.md'), '');
    await edit('posts/dmarc-p-reject-rollout.md', 'date: 2025-02-17', 'date: 2026-02-30');
    await edit('posts/retiring-pid-files.md', 'date: 2024-06-03', 'date: 2024-13-03');
    const r = JSON.parse((await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd)).stdout);
    const hint = (file: string) => r.problems.find((p: { file: string }) => p.file.endsWith(file))?.hint;
    expect(hint('posts/bounce-handling.md')).toBe(
      'Close the list with ] on the same line, e.g. tags: [postgres, migrations], or write one "- item" per line.',
    );
    expect(hint('site.yaml')).toBe('Each field may appear once: remove or merge the repeated one.');
    expect(hint('posts/affected-only-builds.md')).toMatch(/^The file has no front-matter: start it with a line "---", then title: /);
    expect(hint('posts/dmarc-p-reject-rollout.md')).toBe('February 2026 has 28 days. Write the date as YYYY-MM-DD, e.g. date: 2026-03-14');
    expect(hint('posts/retiring-pid-files.md')).toBe('There is no month 13. Write the date as YYYY-MM-DD, e.g. date: 2026-03-14');
  });

  it('checks the API lifecycle: a sunset less than 180 days after deprecation (D19)', SLOW, async () => {
    const dir = await content();
    await appendFile(join(dir, 'site.yaml'), 'api:\n  versions:\n    v1: { deprecated: 2027-01-01, sunset: 2027-03-01, successor: v2 }\n');
    const r = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd);
    expect(r.code).toBe(1);
    const [problem] = JSON.parse(r.stdout).problems;
    expect(problem.file).toMatch(/site\.yaml$/);
    expect(problem.message).toContain('less than 180 days');
    expect(problem.hint).toContain('2027-06-30');
  });

  it('judges drafts and scheduled posts by the build clock: a link to a post published later is broken today', SLOW, async () => {
    const dir = await content();
    await appendFile(
      join(dir, 'posts/bounce-handling.md'),
      '\nSee [the post on VAT in the EU](/blog/selling-a-small-saas-across-the-eu-vat).\n',
    );
    const scheduled = (await readFile(join(dir, 'posts/selling-a-small-saas-across-the-eu-vat.md'), 'utf8')).match(/^date: (.*)$/m)![1]!;
    expect(scheduled > '2026-11-22').toBe(true);
    const today = await folioIn(['check', '--content', dir, '--now', '2026-11-22'], work.cwd);
    expect(today.code).toBe(1);
    expect(today.stderr).toContain('a draft or a post dated after the build clock is not published yet');
    const later = await folioIn(['check', '--content', dir, '--now', scheduled], work.cwd);
    expect(later.code, later.stderr).toBe(0);
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
