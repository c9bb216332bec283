// folio check (D2, D44) on the links in a post's body, over copies of the
// sample: a broken internal link, a relative one (its hint naming the
// site-root address it means, an image's its own) and one to a post the build
// clock has not published yet.
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folioIn } from './helpers/cli.js';
import { workspace } from './helpers/workspace.js';

const SLOW = { timeout: 120_000 };

const work = workspace('folio-check-cwd-');
const content = () => work.content();

describe('folio check', () => {
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
});
