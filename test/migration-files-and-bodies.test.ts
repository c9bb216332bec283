// What a blog moved from Hugo or Jekyll leaves that folio does not publish
// as such (D2): Markdown files it does not read, Hugo's _index.md, posts with
// no body, shortcodes and Liquid tags in a body, all warned of at their file
// and line; and the same warning in many posts, counted in one line.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folioIn } from './helpers/cli.js';
import { groupWarnings } from '../build/warning-groups.js';
import { NOW, SLOW, migrationWorkspace, warningsOf } from './helpers/migration.js';

const work = migrationWorkspace();

const POST = '---\ntitle: Moved from another generator\ndate: 2024-01-05\n---\n\nA paragraph.\n';

describe('a blog moved from Hugo or Jekyll (D2)', () => {
  it('warns of each Markdown file folio does not read: subfolders, page bundles, other extensions', SLOW, async () => {
    const dir = await work.content();
    await mkdir(join(dir, 'posts/2024'));
    await writeFile(join(dir, 'posts/2024/year-in-review.md'), POST);
    await mkdir(join(dir, 'posts/hugo-bundle'));
    await writeFile(join(dir, 'posts/hugo-bundle/index.md'), POST);
    await writeFile(join(dir, 'posts/2024-01-05-jekyll.markdown'), POST);
    await writeFile(join(dir, 'projects/Side-Project.MD'), POST);
    // Images and other files in a subfolder are no content: the sample keeps its images in posts/img/.
    await writeFile(join(dir, 'posts/img/notes.txt'), 'not a post');
    const out = join(work.cwd, 'strays');
    const built = await folioIn(['build', '--content', dir, '--out', out, '--now', NOW], work.cwd);
    expect(built.code, built.stderr).toBe(0);
    const p = `${relative(work.cwd, dir)}/posts`;
    expect(warningsOf(built.stderr)).toEqual([
      `folio: warning: ${p}/2024-01-05-jekyll.markdown:1:1: folio reads a post only from a file ending in .md, so 2024-01-05-jekyll.markdown is not published.`,
      `folio: warning: ${p}/2024/year-in-review.md:1:1: This post is in a subfolder of ${p}, and folio reads posts only from ${p} itself (subfolders hold images), so it is not published.`,
      `folio: warning: ${p}/hugo-bundle/index.md:1:1: This post is in a subfolder of ${p}, and folio reads posts only from ${p} itself (subfolders hold images), so it is not published.`,
      `folio: warning: ${relative(work.cwd, dir)}/projects/Side-Project.MD:1:1: folio reads a project only from a file ending in .md, so Side-Project.MD is not published.`,
    ]);
    expect(built.stderr).toContain('hint: To publish it, rename it to 2024-01-05-jekyll.md (the name without .md is its address)');
    expect(built.stderr).toContain(`hint: To publish it, move it to ${p}/year-in-review.md and list its old address under aliases`);
    expect(built.stderr).toContain(
      `hint: To publish it, move it to ${p}/hugo-bundle.md, and write its relative image paths from there (./photo.png becomes ./hugo-bundle/photo.png)`,
    );
    expect(built.stderr).toContain('hint: To publish it, rename it to side-project.md');
    expect(built.stderr).not.toContain('notes.txt');
    expect(existsSync(join(out, 'blog/year-in-review.html'))).toBe(false);
    // folio check says the same, in its JSON report too.
    const checked = await folioIn(['check', '--content', dir, '--now', NOW, '--json'], work.cwd);
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout).warnings).toEqual(
      warningsOf(built.stderr).map((w) => expect.stringContaining(w.slice('folio: warning: '.length))),
    );
  });
});

describe('template syntax of Hugo and Jekyll left in a body (D2)', () => {
  it('warns of shortcodes and Liquid tags at their line and column, and leaves code alone', SLOW, async () => {
    const dir = await work.content();
    await writeFile(
      join(dir, 'posts/with-templates.md'),
      [
        '---',
        'title: With templates',
        'date: 2024-01-05',
        '---',
        '',
        'Intro paragraph.',
        '',
        '{{< figure src="/img/a.png" alt="A" >}}',
        '',
        '{% highlight ruby %}',
        'puts 1',
        '{% endhighlight %}',
        '',
        'Shown as code: `{{< ref "x" >}}`, and a note {{% note %}}hi{{% /note %}}.',
        '',
        '```',
        '{% raw %}{{ site.title }}',
        '```',
        '',
        '<!--more-->',
        '',
        'Rest.',
        '',
      ].join('\n'),
    );
    const out = join(work.cwd, 'templates');
    const r = await folioIn(['build', '--content', dir, '--out', out, '--now', NOW], work.cwd);
    expect(r.code, r.stderr).toBe(0);
    const p = `${relative(work.cwd, dir)}/posts/with-templates.md`;
    expect(warningsOf(r.stderr)).toEqual([
      `folio: warning: ${p}:8:1: A Hugo shortcode is published as the text it is, since folio runs no templates: {{< figure src="/img/a.png" alt="A" >}}`,
      `folio: warning: ${p}:10:1: A Liquid template tag is published as the text it is, since folio runs no templates: {% highlight ruby %}`,
      `folio: warning: ${p}:12:1: A Liquid template tag is published as the text it is, since folio runs no templates: {% endhighlight %}`,
      `folio: warning: ${p}:14:46: A Hugo shortcode is published as the text it is, since folio runs no templates: {{% note %}}`,
      `folio: warning: ${p}:14:60: A Hugo shortcode is published as the text it is, since folio runs no templates: {{% /note %}}`,
    ]);
    expect(r.stderr).toContain('hint: Write it in Markdown: an image is ![What it shows](/img/photo.png)');
    expect(r.stderr).toContain('hint: Write the code as a fenced code block: ```ruby on the line before it');
    // Published as written: the warning says what the reader sees.
    expect(await readFile(join(out, 'blog/with-templates.html'), 'utf8')).toContain('{{&#x3C; figure');
  });
});

describe('what a migration leaves beside the posts (D2)', () => {
  it("passes over Hugo's _index.md list pages with a warning, and warns of a post with no body", SLOW, async () => {
    const dir = await work.content();
    await writeFile(join(dir, 'posts/_index.md'), '---\ntitle: Posts\n---\n\nAll my posts.\n');
    await writeFile(join(dir, 'posts/empty.md'), '---\ntitle: Nothing yet\ndate: 2024-01-05\n---\n');
    const out = join(work.cwd, 'leftovers');
    const r = await folioIn(['build', '--content', dir, '--out', out, '--now', NOW], work.cwd);
    expect(r.code, r.stderr).toBe(0);
    const p = `${relative(work.cwd, dir)}/posts`;
    expect(warningsOf(r.stderr)).toEqual([
      `folio: warning: ${p}/empty.md:4:1: This post has no body: its page, its Markdown twin and the feeds show the title and its facts alone.`,
      `folio: warning: ${p}/_index.md:1:1: This is Hugo's list page of ${p}, not a post, so it is not published: folio makes its own list page of posts.`,
    ]);
    expect(r.stderr).toContain('hint: Write the post below the closing ---, or set draft: true until it is written.');
    expect(r.stderr).toContain('hint: Delete it, or move it out of content/ to keep its text.');
    expect(existsSync(join(out, 'blog/empty.html'))).toBe(true);
  });
});

describe('the same warning in many posts', () => {
  it('prints three of a kind in full and counts the rest in one line; folio check --json lists each', SLOW, async () => {
    const dir = await work.content();
    for (let i = 0; i < 7; i++)
      await writeFile(
        join(dir, `posts/moved-${i}.md`),
        `---\ntitle: Moved ${i}\ndate: 2024-01-05\nlastmod: 2024-02-0${i + 1}\n---\n\nBody ${i}.\n`,
      );
    // One of another kind, which stays whole however many of the first there are.
    await writeFile(join(dir, 'posts/grouped.md'), '---\ntitle: Grouped\ndate: 2024-01-05\ncategories: [Ops]\n---\n\nBody.\n');
    const p = `${relative(work.cwd, dir)}/posts`;
    const lastmod = '`lastmod` is the day of the last change in Hugo and Jekyll; folio reads that from `updated`, so this post shows none.';
    for (const args of [
      ['build', '--content', dir, '--out', join(work.cwd, 'grouped'), '--now', NOW],
      ['check', '--content', dir, '--now', NOW],
    ]) {
      const r = await folioIn(args, work.cwd);
      expect(r.code, r.stderr).toBe(0);
      expect(warningsOf(r.stderr)).toEqual([
        `folio: warning: ${p}/grouped.md:4:1: \`categories\` is a grouping of posts in Hugo and Jekyll; folio has tags alone, and makes no page or filter of it.`,
        `folio: warning: ${p}/moved-0.md:4:1: ${lastmod}`,
        `folio: warning: ${p}/moved-1.md:4:1: ${lastmod}`,
        `folio: warning: ${p}/moved-2.md:4:1: ${lastmod}`,
        `folio: warning: the same in 4 more places (${p}/moved-3.md:4:1, ${p}/moved-4.md:4:1, ${p}/moved-5.md:4:1 and 1 more): ${lastmod.slice(0, 89)}… (folio check --json lists each)`,
      ]);
      // Each shown warning keeps its own hint.
      expect(r.stderr).toContain('hint: Rename it: updated: 2024-02-03');
      expect(r.stderr).not.toContain('hint: Rename it: updated: 2024-02-04');
    }
    // A fourth of a kind alone is said in full: a line that counts it would be no shorter.
    const said: string[] = [];
    const groups = groupWarnings((w) => said.push(w));
    for (let i = 0; i < 4; i++) groups.warn(`posts/p${i}.md:2:1: Same.\n  hint: Fix ${i}.`);
    groups.warn('site.yaml: Another.\n  hint: Fix it.');
    groups.flush();
    expect(said).toEqual(
      [0, 1, 2]
        .map((i) => `posts/p${i}.md:2:1: Same.\n  hint: Fix ${i}.`)
        .concat(['site.yaml: Another.\n  hint: Fix it.', 'posts/p3.md:2:1: Same.\n  hint: Fix 3.']),
    );
    const json = await folioIn(['check', '--content', dir, '--now', NOW, '--json'], work.cwd);
    const warnings = JSON.parse(json.stdout).warnings as string[];
    expect(warnings.filter((w) => w.includes('`lastmod`'))).toHaveLength(7);
  });
});
