// What folio check and folio build say of the content but do not refuse
// (content/warnings.ts): each warning names the file, what is wrong and the
// fix, both commands print the same ones, and the build publishes the
// content as it reads it.
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPlaceholderUrl } from '../build/content/site-config.js';
import { folioIn } from './helpers/cli.js';
import { workspace } from './helpers/workspace.js';

const SLOW = { timeout: 120_000 };

const work = workspace('folio-warnings-cwd-');
const content = () => work.content();

const warningsOf = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('folio: warning: '));

describe('content warnings', () => {
  it('warns of a field a letter or two from one folio reads, and publishes it as the author wrote it (D2)', SLOW, async () => {
    const dir = await content();
    const post = join(dir, 'posts/bounce-handling.md');
    await writeFile(
      post,
      (await readFile(post, 'utf8')).replace('date: 2024-10-14\n', 'date: 2024-10-14\ndrafts: true\nSummry: Short.\nlang: en\n'),
    );
    const service = join(dir, 'services/email-deliverability.md');
    await writeFile(service, (await readFile(service, 'utf8')).replace('---\n', '---\nbest-fit: [Anyone]\n'));
    const checked = await folioIn(['check', '--content', dir, '--now', '2026-11-22'], work.cwd);
    expect(checked.code, checked.stderr).toBe(0);
    const warnings = warningsOf(checked.stderr);
    // Each at the field's line, with the fix on a hint line of its own.
    const lineOf = async (file: string, field: string) => (await readFile(file, 'utf8')).split('\n').indexOf(field) + 1;
    const near = (file: string, line: number, key: string, kind: string) =>
      `${file}:${line}:1: \`${key}\` is not a field of a ${kind}, so folio publishes it as it is in the API and reads nothing from it.`;
    expect(warnings).toEqual([
      expect.stringContaining(near('services/email-deliverability.md', 2, 'best-fit', 'service')),
      expect.stringContaining(near('posts/bounce-handling.md', await lineOf(post, 'drafts: true'), 'drafts', 'post')),
      expect.stringContaining(near('posts/bounce-handling.md', await lineOf(post, 'Summry: Short.'), 'Summry', 'post')),
    ]);
    for (const [key, field] of [
      ['best-fit', 'best_fit'],
      ['drafts', 'draft'],
      ['Summry', 'summary'],
    ])
      expect(checked.stderr, key).toContain(
        `reads nothing from it.\n  hint: Did you mean \`${field}\`? Rename it, or keep it if it is a field of your own.`,
      );
    // A short field of the author's own, two letters from `tags`, is not taken for a typo; the build says the same as check.
    const out = join(work.cwd, 'near-fields');
    const built = await folioIn(['build', '--content', dir, '--out', out, '--now', '2026-11-22'], work.cwd);
    expect(built.code, built.stderr).toBe(0);
    expect(warningsOf(built.stderr)).toEqual(warnings);
    const record = JSON.parse(await readFile(join(out, 'api/v1/posts/bounce-handling.json'), 'utf8'));
    expect(record).toMatchObject({ drafts: true, Summry: 'Short.', lang: 'en' });
    await rm(out, { recursive: true, force: true });
  });

  it('warns of raw HTML the pages leave out, with its text, at its line; comments aside (D24)', SLOW, async () => {
    const dir = await content();
    const post = join(dir, 'posts/bounce-handling.md');
    const lines = (await readFile(post, 'utf8')).split('\n').length;
    await appendFile(
      post,
      '\n<details><summary>More</summary>Hidden text</details>\n\nA<br>B, <span>kept</span> and <!-- a note to self -->.\n',
    );
    const r = await folioIn(['check', '--content', dir, '--now', '2026-11-22'], work.cwd);
    expect(r.code, r.stderr).toBe(0);
    const warnings = warningsOf(r.stderr);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `posts/bounce-handling\\.md:${lines + 1}:1: Raw HTML is left out of the HTML page, with any text inside it: <details><summary>More</summary>Hidden text</details>$`,
        ),
      ),
      // Within a paragraph only the tags go, once for a pair: the text between them stays.
      expect.stringMatching(
        new RegExp(
          `posts/bounce-handling\\.md:${lines + 3}:2: A raw HTML tag is left out of the HTML page \\(the text around it stays\\): <br>$`,
        ),
      ),
      expect.stringMatching(new RegExp(`posts/bounce-handling\\.md:${lines + 3}:9: A raw HTML tag .*: <span>$`)),
    ]);
    expect(r.stderr).toContain('  hint: Write it in Markdown');
    const out = join(work.cwd, 'raw-html');
    expect((await folioIn(['build', '--content', dir, '--out', out, '--now', '2026-11-22'], work.cwd)).code).toBe(0);
    const page = await readFile(join(out, 'blog/bounce-handling.html'), 'utf8');
    expect(page).toContain('<p>AB, kept and .</p>');
    expect(page).not.toContain('Hidden text');
    await rm(out, { recursive: true, force: true });
  });

  it('warns of an updated day after the build day, at its line, and says the same in a later build no more (D61)', SLOW, async () => {
    const dir = await content();
    const post = join(dir, 'posts/bounce-handling.md');
    await writeFile(post, (await readFile(post, 'utf8')).replace('date: 2024-10-14\n', 'date: 2024-10-14\nupdated: 2026-12-01\n'));
    const early = await folioIn(['check', '--content', dir, '--now', '2026-11-22'], work.cwd);
    expect(early.code, early.stderr).toBe(0);
    expect(warningsOf(early.stderr)).toEqual([
      expect.stringContaining(
        'posts/bounce-handling.md:4:1: `updated` (2026-12-01) is after the build day (2026-11-22): the sitemap, the feeds, the structured data and the change log say the post changed on a day still to come.',
      ),
    ]);
    expect(early.stderr).toContain('  hint: Set updated to the day of the last real change, 2026-11-22 or before.');
    const later = await folioIn(['check', '--content', dir, '--now', '2026-12-01'], work.cwd);
    expect(warningsOf(later.stderr)).toEqual([]);
  });

  it('warns of a tag that loses characters to its slug, at its line, and publishes the slug (D9)', SLOW, async () => {
    const dir = await content();
    const post = join(dir, 'posts/bounce-handling.md');
    const text = await readFile(post, 'utf8');
    // A tag written twice is warned of once, at its first line.
    await writeFile(post, text.replace(/^tags:\n/m, 'tags:\n  - C++\n  - Node.js\n  - Straße\n  - Go (language)\n  - C♯\n  - C++\n'));
    const project = join(dir, 'projects/bouncedesk.md');
    await writeFile(project, (await readFile(project, 'utf8')).replace(/^tags:\n( {2}- .*\n)+/m, 'tags: ["C#"]\n'));
    const line = text.split('\n').indexOf('tags:') + 2;
    const checked = await folioIn(['check', '--content', dir, '--now', '2026-11-22'], work.cwd);
    expect(checked.code, checked.stderr).toBe(0);
    const warnings = warningsOf(checked.stderr);
    // Case, accents and punctuation are what a slug leaves out (Node.js is node-js); a naming symbol or a letter outside a-z is lost.
    expect(warnings.map((w) => w.replace(/^folio: warning: .*?(?=(posts|projects)\/)/, ''))).toEqual([
      `posts/bounce-handling.md:${line}:5: The tag "C++" is published as "c": tags are lowercase slugs (a-z, digits, hyphens), so "+" is dropped.`,
      `posts/bounce-handling.md:${line + 2}:5: The tag "Straße" is published as "stra-e": tags are lowercase slugs (a-z, digits, hyphens), so "ß" is dropped.`,
      `posts/bounce-handling.md:${line + 4}:5: The tag "C♯" is published as "c": tags are lowercase slugs (a-z, digits, hyphens), so "♯" is dropped.`,
      'projects/bouncedesk.md:7:8: The tag "C#" is published as "c": tags are lowercase slugs (a-z, digits, hyphens), so "#" is dropped.',
    ]);
    expect(checked.stderr).toContain('  hint: Write the tag as the slug you mean, e.g. cpp for C++ or csharp for C#');
    // For tools: with --json the same warnings are in the report, and stdout holds nothing else.
    const json = await folioIn(['check', '--content', dir, '--now', '2026-11-22', '--json'], work.cwd);
    expect(json.code, json.stderr).toBe(0);
    expect(warningsOf(json.stderr)).toEqual([]);
    const report = JSON.parse(json.stdout) as { ok: boolean; problems: unknown[]; warnings: string[] };
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect(report.warnings.map((w) => `folio: warning: ${w.split('\n')[0]}`)).toEqual(warnings);
    expect(report.warnings[0]).toContain('\n  hint: Write the tag as the slug you mean');
    const out = join(work.cwd, 'lossy-tags');
    const built = await folioIn(['build', '--content', dir, '--out', out, '--now', '2026-11-22'], work.cwd);
    expect(built.code, built.stderr).toBe(0);
    expect(warningsOf(built.stderr)).toEqual(warnings);
    const record = JSON.parse(await readFile(join(out, 'api/v1/posts/bounce-handling.json'), 'utf8'));
    expect(record.tags.slice(0, 4)).toEqual(['c', 'node-js', 'stra-e', 'go-language']);
    await rm(out, { recursive: true, force: true });
  });

  it('warns of a placeholder site_url or --site-url, which every absolute address would point at; a real one is quiet', SLOW, async () => {
    const dir = await content();
    const site = join(dir, 'site.yaml');
    const yaml = await readFile(site, 'utf8');
    await writeFile(site, yaml.replace(/^site_url: .*$/m, 'site_url: https://www.example.org'));
    const line = yaml.split('\n').findIndex((l) => l.startsWith('site_url:')) + 1;
    const checked = await folioIn(['check', '--content', dir, '--now', '2026-11-22'], work.cwd);
    expect(checked.code, checked.stderr).toBe(0);
    expect(warningsOf(checked.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `site\\.yaml:${line}:1: \`site_url\` https://www\\.example\\.org is a placeholder, and the canonical links, the sitemap, .* would point there\\.$`,
        ),
      ),
    ]);
    const out = join(work.cwd, 'placeholder-url');
    const previewed = await folioIn(
      ['build', '--content', dir, '--out', out, '--now', '2026-11-22', '--site-url', 'https://example.com'],
      work.cwd,
    );
    expect(previewed.code, previewed.stderr).toBe(0);
    expect(warningsOf(previewed.stderr)).toEqual([
      expect.stringMatching(/^folio: warning: --site-url:1:1: https:\/\/example\.com is a placeholder/),
    ]);
    expect(previewed.stderr).toContain('  hint: Pass the address the site is served at');
    // The site is still built with it, as asked.
    expect(await readFile(join(out, 'sitemap.xml'), 'utf8')).toContain('<loc>https://example.com/</loc>');
    const real = await folioIn(
      ['build', '--content', dir, '--out', out, '--now', '2026-11-22', '--site-url', 'https://ada.consulting'],
      work.cwd,
    );
    expect(real.code, real.stderr).toBe(0);
    expect(warningsOf(real.stderr)).toEqual([]);
    await rm(out, { recursive: true, force: true });
  });

  it('takes for a placeholder an address on example.com, .net or .org however it is written, and nothing else', () => {
    const placeholders = [
      'https://example.com',
      'https://www.example.org',
      'http://EXAMPLE.NET:8080/site',
      'https://user@example.com',
      'https://example.com?x=1',
      'https://example.com.',
      'https://a.b.example.com/blog',
    ];
    const real = [
      'https://ada.example',
      'https://hannabrink.example',
      'https://notexample.com',
      'https://example.com.au',
      'https://example.co',
      'https://my-example.org',
    ];
    expect(placeholders.filter((u) => !isPlaceholderUrl(u))).toEqual([]);
    expect(real.filter(isPlaceholderUrl)).toEqual([]);
  });
});
