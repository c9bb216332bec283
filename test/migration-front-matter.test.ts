// Front-matter and fields written for Hugo or Jekyll (D2, D9, D48): TOML,
// JSON and code front-matter, times of day, comma and word tags, the fields
// those generators read and folio does not, old addresses as aliases and
// links through Liquid, each reported at its file and line with the fix.
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenSample, type BrokenSample } from './helpers/broken.js';
import { folioIn } from './helpers/cli.js';
import { NOW, SLOW, migrationWorkspace, warningsOf } from './helpers/migration.js';

const work = migrationWorkspace();

// One built copy of the sample for every test that breaks it: each break starts from the sample again.
let sample: BrokenSample;
beforeAll(async () => {
  sample = await brokenSample();
}, 120_000);
afterAll(() => sample.close());

describe('front-matter written for Hugo or Jekyll (D2)', () => {
  it('names TOML and JSON front-matter as what they are, with the conversion', async () => {
    const r = await sample.breakWith(
      async (d) => {
        await writeFile(join(d, 'posts/from-hugo.md'), '+++\ntitle = "From Hugo"\ndate = 2024-01-05\n+++\n\nBody.\n');
        await writeFile(join(d, 'posts/from-json.md'), '{\n  "title": "From JSON",\n  "date": "2024-01-05"\n}\n\nBody.\n');
      },
      { check: true },
    );
    expect(r.stderr).toContain(
      `${r.rel}/posts/from-hugo.md:1:1: The front-matter is TOML (between +++ lines), and folio reads YAML front-matter between --- lines.\n  hint: Convert it to YAML: replace both +++ lines with ---, and write each key = value as key: value`,
    );
    expect(r.stderr).toContain(
      `${r.rel}/posts/from-json.md:1:1: The front-matter is JSON ({ … }), and folio reads front-matter between --- lines.\n  hint: Add a line --- before the opening { and another after the closing }`,
    );
    // One problem each, not every field reported missing.
    expect(r.stderr).toContain('2 content problems:');
    expect(r.check).toContain('from-hugo.md:1:1: The front-matter is TOML');
  });

  it('never runs front-matter written in a programming language, and names any language but YAML', async () => {
    // gray-matter evaluates ---js front-matter: this one would leave a file behind when run.
    const ran = join(await work.content(), 'front-matter-ran');
    const code = (file: string) => `(require('node:fs').writeFileSync(${JSON.stringify(file)}, 'ran'), 'Run')`;
    const r = await sample.breakWith(
      async (d) => {
        await writeFile(join(d, 'posts/from-js.md'), `---js\n{ title: ${code(ran)}, date: '2024-01-05' }\n---\n\nBody.\n`);
        await writeFile(join(d, 'posts/from-javascript.md'), `---javascript\n{ title: ${code(ran)}, date: '2024-01-05' }\n---\n\nBody.\n`);
        await writeFile(join(d, 'posts/from-coffee.md'), '---coffee\ntitle: "From Coffee"\n---\n\nBody.\n');
        await writeFile(join(d, 'posts/from-json-tag.md'), '---json\n{ "title": "From JSON", "date": "2024-01-05" }\n---\n\nBody.\n');
        // YAML named as such is YAML: no problem of its own.
        await writeFile(join(d, 'posts/named-yaml.md'), '---yaml\ntitle: Named YAML\ndate: 2024-01-05\n---\n\nBody.\n');
      },
      { check: true },
    );
    expect(existsSync(ran)).toBe(false);
    for (const [file, name] of [
      ['from-js', 'js'],
      ['from-javascript', 'javascript'],
      ['from-coffee', 'coffee'],
      ['from-json-tag', 'json'],
    ])
      expect(r.stderr).toContain(
        `${r.rel}/posts/${file}.md:1:1: The front-matter is marked as \`${name}\` (after the opening ---), and folio reads YAML front-matter only; it never runs code from content.\n  hint: Write the opening line as --- alone`,
      );
    expect(r.stderr).toContain('4 content problems:');
    expect(r.stderr).not.toContain('named-yaml.md');
    expect(r.check).toContain('from-js.md:1:1: The front-matter is marked as `js`');
  });

  it('reads JSON front-matter between --- lines, as the hint says', SLOW, async () => {
    const dir = await work.content();
    await writeFile(
      join(dir, 'posts/from-json.md'),
      '---\n{\n  "title": "From JSON",\n  "date": "2024-01-05",\n  "tags": ["json"]\n}\n---\n\nBody.\n',
    );
    const r = await folioIn(['check', '--content', dir, '--now', NOW], work.cwd);
    expect(r.code, r.stderr).toBe(0);
  });

  it('reports a date with a time of day with the day to write', async () => {
    const r = await sample.breakWith(async (d) => {
      await writeFile(join(d, 'posts/hugo-time.md'), '---\ntitle: Hugo time\ndate: 2024-01-05T10:00:00+02:00\n---\n\nBody.\n');
      await writeFile(
        join(d, 'posts/jekyll-time.md'),
        '---\ntitle: Jekyll time\ndate: 2024-01-05 23:30:00 +0200\nupdated: "2024-02-01T08:00:00Z"\n---\n\nBody.\n',
      );
    });
    expect(r.stderr).toContain(
      `${r.rel}/posts/hugo-time.md:3:1: \`date\` has a time of day, and folio dates by the day: "2024-01-05T10:00:00+02:00".\n  hint: Write date: 2024-01-05 (the day as written). A post is published from the start of its day, UTC.`,
    );
    expect(r.stderr).toContain(
      `${r.rel}/posts/jekyll-time.md:3:1: \`date\` has a time of day, and folio dates by the day: "2024-01-05 23:30:00 +0200".\n  hint: Write date: 2024-01-05 `,
    );
    expect(r.stderr).toContain(
      `${r.rel}/posts/jekyll-time.md:4:1: \`updated\` has a time of day, and folio dates by the day: "2024-02-01T08:00:00Z".\n  hint: Write updated: 2024-02-01 `,
    );
  });
});

describe('fields written for Hugo or Jekyll (D2, D9)', () => {
  it('reports tags written as one text with commas, with the list to write', async () => {
    const r = await sample.breakWith(
      async (d) => {
        await writeFile(join(d, 'posts/comma-tags.md'), '---\ntitle: Comma tags\ndate: 2024-01-05\ntags: "email, DMARC"\n---\n\nBody.\n');
        await writeFile(
          join(d, 'projects/comma-tags.md'),
          '---\ntitle: Comma tags\nstatus: live\nsummary: A project.\ntags: ops,  email\n---\n',
        );
      },
      { check: true },
    );
    expect(r.stderr).toContain(
      `${r.rel}/posts/comma-tags.md:4:1: \`tags\` is one text, "email, DMARC", which would be the one tag "email-dmarc".\n  hint: Write the tags as a list: tags: [email, DMARC]`,
    );
    expect(r.stderr).toContain(
      `${r.rel}/projects/comma-tags.md:5:1: \`tags\` is one text, "ops,  email", which would be the one tag "ops-email".\n  hint: Write the tags as a list: tags: [ops, email]`,
    );
    expect(r.check).toContain('comma-tags.md:4:1: `tags` is one text');
  });
});

describe('what Hugo and Jekyll read from a post and folio does not (D2)', () => {
  it('refuses published: false, which Jekyll holds back and folio would publish', SLOW, async () => {
    const dir = await work.content();
    await writeFile(join(dir, 'posts/held-back.md'), '---\ntitle: Held back\ndate: 2024-01-05\npublished: false\n---\n\nBody.\n');
    const r = await folioIn(['build', '--content', dir, '--out', join(work.cwd, 'held'), '--now', NOW], work.cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${relative(work.cwd, dir)}/posts/held-back.md:4:1: \`published: false\` holds this post back in Jekyll, but folio reads \`draft\`, so it would publish it.\n  hint: Write draft: true instead of published: false.`,
    );
    expect(existsSync(join(work.cwd, 'held'))).toBe(false);
    // With draft: true beside it, the post is held back either way.
    await writeFile(
      join(dir, 'posts/held-back.md'),
      '---\ntitle: Held back\ndate: 2024-01-05\ndraft: true\npublished: false\n---\n\nBody.\n',
    );
    const fixed = await folioIn(['check', '--content', dir, '--now', NOW], work.cwd);
    expect(fixed.code, fixed.stderr).toBe(0);
  });

  it('warns of lastmod, description, categories, permalink and the like at their lines, with the field to use', SLOW, async () => {
    const dir = await work.content();
    await writeFile(
      join(dir, 'posts/from-hugo.md'),
      '---\ntitle: From Hugo\ndate: 2024-01-05\nlastmod: 2024-02-01T10:00:00Z\ncategories: [Ops, Email]\ndescription: What the post is about.\nurl: /2024/01/from-hugo/\npublishDate: 2024-01-06\nimages: [/images/cover.png]\n---\n\nBody.\n',
    );
    await writeFile(
      join(dir, 'posts/from-jekyll.md'),
      '---\ntitle: From Jekyll\ndate: 2024-01-05\npermalink: /ops/from-jekyll.html\nexcerpt: Short.\ncover:\n  image: /img/card.jpg\n---\n\nBody.\n',
    );
    const out = join(work.cwd, 'borrowed');
    const r = await folioIn(['build', '--content', dir, '--out', out, '--now', NOW], work.cwd);
    expect(r.code, r.stderr).toBe(0);
    const p = `${relative(work.cwd, dir)}/posts`;
    expect(warningsOf(r.stderr)).toEqual([
      `folio: warning: ${p}/from-hugo.md:4:1: \`lastmod\` is the day of the last change in Hugo and Jekyll; folio reads that from \`updated\`, so this post shows none.`,
      `folio: warning: ${p}/from-hugo.md:5:1: \`categories\` is a grouping of posts in Hugo and Jekyll; folio has tags alone, and makes no page or filter of it.`,
      `folio: warning: ${p}/from-hugo.md:6:1: \`description\` is the summary in Hugo and Jekyll; folio reads \`summary\`, and without it takes the first paragraph.`,
      `folio: warning: ${p}/from-hugo.md:7:1: \`url\` is the post's address in Hugo and Jekyll; folio publishes it at /blog/<slug> (the file name, or \`slug\`).`,
      `folio: warning: ${p}/from-hugo.md:8:1: \`publishDate\` is Hugo's schedule for the post; folio publishes a post from its \`date\` on and never takes it down.`,
      `folio: warning: ${p}/from-hugo.md:9:1: \`images\` is the post's image for link previews in Hugo's and Jekyll's themes; folio's card shows the first PNG, JPEG, GIF, WebP or AVIF image in the post's body, else the site's image.`,
      `folio: warning: ${p}/from-jekyll.md:4:1: \`permalink\` is the post's address in Hugo and Jekyll; folio publishes it at /blog/<slug> (the file name, or \`slug\`).`,
      `folio: warning: ${p}/from-jekyll.md:5:1: \`excerpt\` is the summary in Hugo and Jekyll; folio reads \`summary\`, and without it takes the first paragraph.`,
      `folio: warning: ${p}/from-jekyll.md:6:1: \`cover\` is the post's image for link previews in Hugo's and Jekyll's themes; folio's card shows the first PNG, JPEG, GIF, WebP or AVIF image in the post's body, else the site's image.`,
    ]);
    for (const hint of [
      'hint: Rename it: updated: 2024-02-01',
      'hint: Move them into tags, e.g. tags: [Ops, Email], or keep it as a field of your own.',
      'hint: Rename it: summary: What the post is about.',
      'hint: List the old address under aliases, so links to it keep working: aliases: [/2024/01/from-hugo]',
      'hint: Set date to the day the post should appear (draft: true holds it back), and remove this field.',
      'hint: List the old address under aliases, so links to it keep working: aliases: [/ops/from-jekyll.html]',
      'hint: Show the image in the body, e.g. ![What it shows](./img/cover.png), or keep this as a field of your own.',
    ])
      expect(r.stderr).toContain(hint);
    // Where the field is the author's own: a whole URL (where else the post appeared), a description beside a summary, a cover that names no image.
    await writeFile(
      join(dir, 'posts/own-fields.md'),
      "---\ntitle: Own fields\ndate: 2024-01-05\nsummary: The summary.\ndescription: For the author's own use.\nurl: https://medium.com/@ada/own-fields\ncover: { relative: true }\n---\n\nBody.\n",
    );
    const again = await folioIn(['build', '--content', dir, '--out', join(work.cwd, 'own'), '--now', NOW], work.cwd);
    expect(again.code, again.stderr).toBe(0);
    expect(warningsOf(again.stderr).filter((w) => w.includes('own-fields.md'))).toEqual([]);
    // Published as written, as every field of the author's own is (D2).
    const record = JSON.parse(await readFile(join(out, 'api/v1/posts/from-hugo.json'), 'utf8'));
    expect(record).toMatchObject({ lastmod: '2024-02-01T10:00:00Z', categories: ['Ops', 'Email'], updated: null });
  });
});

describe('old addresses of Hugo and Jekyll as aliases (D48)', () => {
  it('says to write a pretty URL without its trailing slash, which the redirect answers too', async () => {
    const r = await sample.breakWith(async (d) => {
      await writeFile(join(d, 'posts/moved.md'), '---\ntitle: Moved\ndate: 2024-01-05\naliases:\n  - /2019/05/05/moved/\n---\n\nBody.\n');
    });
    expect(r.stderr).toContain(
      `${r.rel}/posts/moved.md:5:5: The alias "/2019/05/05/moved/" ends with a slash.\n  hint: Write it without the slash, /2019/05/05/moved: an alias answers with and without a trailing slash.`,
    );
  });
});

describe('Jekyll habits: tags as words, links through Liquid (D2, D9)', () => {
  it('warns of tags written as words in one text, which Jekyll reads as a tag each', SLOW, async () => {
    const dir = await work.content();
    await writeFile(join(dir, 'posts/word-tags.md'), '---\ntitle: Word tags\ndate: 2024-01-05\ntags: ruby  rails\n---\n\nBody.\n');
    const out = join(work.cwd, 'word-tags');
    const r = await folioIn(['build', '--content', dir, '--out', out, '--now', NOW], work.cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(warningsOf(r.stderr)).toEqual([
      `folio: warning: ${relative(work.cwd, dir)}/posts/word-tags.md:4:1: \`tags\` is one text, "ruby  rails", published as the one tag "ruby-rails", where Jekyll reads a tag of each word.`,
    ]);
    expect(r.stderr).toContain('hint: For a tag of each word, write tags: [ruby, rails]; for the one tag, write tags: [ruby-rails].');
    expect(JSON.parse(await readFile(join(out, 'api/v1/posts/word-tags.json'), 'utf8')).tags).toEqual(['ruby-rails']);
  });

  it('gives the site-root address of a link written through {{ site.baseurl }} or {% post_url %}', async () => {
    const r = await sample.breakWith(async (d) => {
      await writeFile(
        join(d, 'posts/liquid-links.md'),
        '---\ntitle: Liquid links\ndate: 2024-01-05\n---\n\nSee [the post]({{site.baseurl}}/blog/bounce-handling) and [another](<{% post_url 2024-01-05-x %}>).\n',
      );
    });
    const p = `${r.rel}/posts/liquid-links.md`;
    expect(r.stderr).toContain(
      `${p}:6:5: The link to {{site.baseurl}}/blog/bounce-handling is relative, and the page, its Markdown twin, the API, the feeds and llms-full.txt would each resolve it against another address.\n  hint: The address holds a template tag, and folio runs no templates: write the address it stands for, from the site root (/blog/<slug> for a post). Here: /blog/bounce-handling.`,
    );
    expect(r.stderr).toMatch(
      /liquid-links\.md:6:\d+: The link to \{% post_url 2024-01-05-x %\} is relative.*\n {2}hint: The address holds a template tag, and folio runs no templates: write the address it stands for, from the site root \(\/blog\/<slug> for a post\)\.\n/,
    );
  });
});
