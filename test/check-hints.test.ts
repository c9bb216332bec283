// folio check (D2, D19) on mistakes in front-matter and site.yaml, over copies
// of the sample: the hint each problem gives, naming the fix, and the API
// lifecycle's dates.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folioIn } from './helpers/cli.js';
import { workspace } from './helpers/workspace.js';

const SLOW = { timeout: 120_000 };

const work = workspace('folio-check-cwd-');
const content = () => work.content();

describe('folio check', () => {
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
});
