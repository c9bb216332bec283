// D54: every HTML page of the built sample, and of a build with a hostile post
// (quotes, `</script>`, emoji, right-to-left text, every Markdown construct),
// against html-validate's `html-validate:standard` preset; a page with
// misnested markup shows the preset can fail.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { buildInto, copyContent } from './helpers/site.js';
import { CONFIG, servedSample, SLOW } from './helpers/linters.js';

const s = servedSample();

describe('every HTML page against html-validate:standard (D54)', () => {
  const validator = async () => new HtmlValidate(JSON.parse(await readFile(join(CONFIG, 'htmlvalidate.json'), 'utf8')));

  async function htmlFiles(root: string, sub = ''): Promise<string[]> {
    const files: string[] = [];
    for (const entry of await readdir(join(root, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) files.push(...(await htmlFiles(root, rel)));
      else if (entry.name.endsWith('.html')) files.push(rel);
    }
    return files;
  }

  it('finds no error and no warning on any page of the built sample', SLOW, async () => {
    const html = await validator();
    const files = await htmlFiles(s.out);
    // Every page kind is there: home, lists, posts, projects, services, developers, 404.
    expect(files).toEqual(expect.arrayContaining(['index.html', '404.html', 'about.html', 'blog.html', 'developers.html']));
    expect(files.length).toBeGreaterThan(s.site.posts.length + s.site.projects.length);
    const problems: string[] = [];
    for (const file of files) {
      const report = await html.validateString(await readFile(join(s.out, file), 'utf8'), file);
      for (const result of report.results)
        for (const m of result.messages) problems.push(`${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
    }
    expect(problems).toEqual([]);
  });

  it(
    'finds nothing on pages built from hostile content: quotes, markup, emoji, right-to-left text, every Markdown construct',
    SLOW,
    async () => {
      const content = await copyContent();
      try {
        const title = `"Quotes" & <b>tags</b> </script> <!-- --> 🚀 שלום עולם`;
        await writeFile(
          join(content, 'posts', 'hostile-markup.md'),
          [
            '---',
            `title: ${JSON.stringify(title)}`,
            'date: 2024-01-02',
            'tags: ["émoji-🚀", "rtl-שלום", "a&b"]',
            `summary: ${JSON.stringify(`A summary with ${title} in it.`)}`,
            '---',
            '',
            '<div onclick="x()">raw <script>alert(1)</script> HTML</div> <span style="color:red">inline</span>',
            '',
            '# A second h1 in the body',
            '',
            '| a | b |',
            '| :- | -: |',
            '| `|` | **bold** |',
            '',
            'A footnote[^1] and [a link](/projects "with a title") and ![an image](https://example.com/x.png) and <https://example.com>.',
            '',
            '[^1]: The note, with a [link](https://example.com).',
            '',
            '- [ ] a task',
            '- [x] done',
            '',
            '1. one',
            '2. two',
            '',
            '```js',
            'const s = "</script>";',
            '```',
            '',
            '> a quote',
            '',
            '---',
            '',
            '~~struck~~ <details><summary>s</summary>d</details>',
            '',
          ].join('\n'),
        );
        const built = await buildInto(content);
        try {
          const html = await validator();
          const problems: string[] = [];
          for (const file of await htmlFiles(built.out)) {
            const report = await html.validateString(await readFile(join(built.out, file), 'utf8'), file);
            for (const result of report.results)
              for (const m of result.messages) problems.push(`${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
          }
          const page = await readFile(join(built.out, 'blog', 'hostile-markup.html'), 'utf8');
          expect(page).toContain('שלום');
          // The right-aligned column keeps its alignment, as a class instead of the obsolete align attribute.
          expect(page.match(/<t[hd] class="align-right">/g)).toHaveLength(2);
          expect(problems).toEqual([]);
        } finally {
          await rm(join(built.out, '..'), { recursive: true, force: true });
        }
      } finally {
        await rm(content, { recursive: true, force: true });
      }
    },
  );

  it('reports a page with misnested and duplicated markup (the preset can fail)', async () => {
    const html = await validator();
    const page = await readFile(join(s.out, 'index.html'), 'utf8');
    const broken = page.replace('<main', '<p><div id="x"></p><span id="x"></span><main');
    const report = await html.validateString(broken, 'index.html');
    const rules = report.results.flatMap((r) => r.messages.map((m) => m.ruleId));
    expect(rules).toEqual(expect.arrayContaining(['close-order', 'no-dup-id']));
  });
});
