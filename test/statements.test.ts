// D59 and D2 through the real CLI: the statements of site.yaml (writing,
// disclaimer, footer, is_not, fair_use) are checked when the content is
// loaded. A value of the wrong type fails `folio build` and `folio check` with
// `path:line:column: message` and a hint, exit 1, and the previous dist/ left
// byte-identical; a statement the site makes shows up where it belongs.
import { appendFile, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, treeHash } from './helpers/site.js';
import { writeSmallSite } from './helpers/small-site.js';
import { folio } from './helpers/cli.js';

const NOW = '2026-11-22T00:00:00Z';

let root: string;
let out: string;
let before: Record<string, string>;
let count = 0;

beforeAll(async () => {
  root = await tempDir('folio-statements-');
  out = join(root, 'dist');
  await writeSmallSite(join(root, 'good'), { posts: 1, services: 0, projects: 0 });
  const ok = await folio('build', '--content', join(root, 'good'), '--out', out, '--now', NOW);
  expect(ok.code, ok.stderr).toBe(0);
  before = await treeHash(out);
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A small site whose site.yaml ends with `yaml`; returns its site.yaml path as shown, the 1-based line where `yaml` starts, and both CLIs' answers. */
async function withSiteYaml(yaml: string) {
  const dir = join(root, `case-${++count}`);
  await writeSmallSite(dir, { posts: 1, services: 0, projects: 0 });
  const file = join(dir, 'site.yaml');
  const first = (await readFile(file, 'utf8')).split('\n').length;
  await appendFile(file, yaml);
  const build = await folio('build', '--content', dir, '--out', out, '--now', NOW);
  const check = await folio('check', '--content', dir, '--now', NOW);
  return { file: relative(process.cwd(), file), first, build, check };
}

/** Expects a failed build that left dist/ alone, and returns its stderr. */
async function failing(yaml: string) {
  const r = await withSiteYaml(yaml);
  expect(r.build.code, r.build.stdout).toBe(1);
  expect(r.build.stderr).not.toMatch(/^\s+at /m);
  expect(await treeHash(out)).toEqual(before);
  expect(r.check.code).toBe(1);
  return r;
}

describe('site.yaml statements: content errors (D2, D59)', () => {
  it('reports each statement of the wrong type at its line, with a hint', async () => {
    const r = await failing(
      [
        'writing: [notes, essays]',
        'disclaimer: { legal: no }',
        'footer: [a, b]',
        'is_not: { shop: true }',
        'fair_use: 60',
        'disclaimar: Nothing here is advice.',
        '',
      ].join('\n'),
    );
    const at = (offset: number) => `${r.file}:${r.first + offset}:1: `;
    const err = r.build.stderr;
    expect(err).toContain('6 content problems');
    expect(err).toContain(`${at(0)}\`writing\` must be text, not a list.\n  hint: Write it as writing: notes from my consulting work`);
    expect(err).toContain(
      `${at(1)}\`disclaimer\` must be text, not a map.\n  hint: Write it as disclaimer: Nothing here is professional advice for your situation.`,
    );
    expect(err).toContain(`${at(2)}\`footer\` must be text, not a list.\n  hint: Write it as footer: `);
    expect(err).toContain(`${at(3)}\`is_not\` must be a list of text items, not a map.\n  hint: Write it as is_not: [`);
    expect(err).toContain(`${at(4)}\`fair_use\` must be a map of fields.\n  hint: Write it as fair_use: { requests_per_minute: 60 }`);
    expect(err).toContain(`${at(5)}\`disclaimar\` is not a field of site.yaml.\n  hint: Did you mean "disclaimer"?`);
    // folio check says the same.
    for (const line of err.split('\n').filter((l) => l.startsWith(r.file))) expect(r.check.stderr + r.check.stdout).toContain(line);
  });

  it('reports an unquoted colon in an is_not item, and a rate out of range', async () => {
    const r = await failing('is_not:\n  - It is not: a shop\nfair_use: { requests_per_minute: 0 }\n');
    const err = r.build.stderr;
    expect(err).toContain(
      `${r.file}:${r.first + 1}:5: \`is_not\` item 1 is a map, not text: an unquoted ": " makes YAML read it as a key and a value.\n  hint: Quote the item, e.g. - "It is not: a shop"`,
    );
    expect(err).toContain(
      `${r.file}:${r.first + 2}:13: \`fair_use.requests_per_minute\` must be a whole number from 1 to 100000, not 0.\n  hint: Write it as fair_use: { requests_per_minute: 60 }, or leave fair_use out for the default of about 60.`,
    );
  });

  it('reports YAML true, false or a number where a statement needs words, rather than printing "true"', async () => {
    const r = await failing('disclaimer: true\nwriting: 2024\nis_not:\n  - It is not a help desk.\n  - false\n');
    const err = r.build.stderr;
    expect(err).toContain('3 content problems');
    expect(err).toContain(
      `${r.file}:${r.first}:1: \`disclaimer\` must be text, not boolean true.\n  hint: Write the words in quotes, e.g. disclaimer: "Nothing here is professional advice for your situation."`,
    );
    expect(err).toContain(`${r.file}:${r.first + 1}:1: \`writing\` must be text, not number 2024.`);
    expect(err).toContain(`${r.file}:${r.first + 4}:5: \`is_not\` item 2 is boolean false, not text.\n  hint: Write each item in quotes`);
  });

  it('reports a rate that is not a number, and a field fair_use does not have', async () => {
    const text = await failing('fair_use: { requests_per_minute: fast }\n');
    expect(text.build.stderr).toContain(
      `${text.file}:${text.first}:13: \`fair_use.requests_per_minute\` must be a whole number from 1 to 100000, not "fast".`,
    );
    const other = await failing('fair_use:\n  rate: 60\n');
    expect(other.build.stderr).toContain(
      `${other.file}:${other.first + 1}:3: \`fair_use.rate\` is not a field of fair_use.\n  hint: fair_use has one field: write fair_use: { requests_per_minute: 60 }`,
    );
  });
});

describe('site.yaml statements: where they show (D59)', () => {
  it('states what the site sets, in its words, and fair use without "(the default)"', async () => {
    const dir = join(root, 'stated');
    await writeSmallSite(dir, { posts: 2, services: 0, projects: 0 });
    await appendFile(
      join(dir, 'site.yaml'),
      [
        'writing: field notes.',
        'disclaimer: "Opinions are mine, not my employer\'s."',
        'is_not:',
        '  - A support channel.',
        'fair_use: { requests_per_minute: 120 }',
        '',
      ].join('\n'),
    );
    const dist = join(root, 'stated-dist');
    const r = await folio('build', '--content', dir, '--out', dist, '--now', NOW);
    expect(r.code, r.stderr).toBe(0);
    const read = (path: string) => readFile(join(dist, path), 'utf8');
    // The footer falls back to the disclaimer; the writing's full stop is dropped, as it ends mid-sentence.
    expect(await read('about.html')).toContain('<p>© 2026 Test Person. Opinions are mine, not my employer&#39;s.</p>');
    expect(await read('blog.html')).toContain('<p class="lead">Field notes by Test Person: 2 posts, newest first.</p>');
    expect(await read('llms.txt')).toContain(
      "please keep to about 120 requests a minute. The posts are field notes. Opinions are mine, not my employer's.",
    );
    const agents = await read('.well-known/agent-instructions.md');
    expect(agents).toContain('2 posts written as field notes.');
    expect(agents).toContain("## What this site is not\n\n- Opinions are mine, not my employer's.\n- A support channel.");
    expect(agents).toContain('keep sustained traffic under about 120 requests a minute.');
    const openapi = JSON.parse(await read('openapi.json')) as { info: { description: string } };
    expect(openapi.info.description).toContain('about 120 requests per minute, and revalidate');
    expect(openapi.info.description).toContain("- Opinions are mine, not my employer's.");
    const dev = await read('developers.html');
    expect(dev).toContain("<p>Opinions are mine, not my employer's.</p>");
    expect(await read('developers.md')).toContain("Request bodies over 1 MiB are refused.\n\nOpinions are mine, not my employer's.");
    for (const path of ['llms.txt', 'robots.txt', 'developers.md', '.well-known/agent-instructions.md'])
      expect(await read(path), path).not.toContain('(the default)');
  });
});
