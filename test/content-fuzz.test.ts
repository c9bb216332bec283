// Content fuzzing (D2, D40): random corruptions of valid content
// (bad YAML, wrong types, missing, misspelt and unknown fields, duplicate
// slugs, broken links, binary, non-UTF-8, empty and huge files). The build
// never crashes: each problem is reported as path:line:column with a hint,
// the CLI exits 1 with no stack trace, and the previous dist is left
// byte-identical. FOLIO_FUZZ_SEED replays a failing seed.
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Source } from '../build/content/frontmatter.js';
import type { ContentSources } from '../build/content/load.js';
import { ContentError, formatProblem, type Problem } from '../build/content/problems.js';
import { buildSite } from '../build/site.js';
import { failureReport, fuzzBudget, fuzzRuns, fuzzSeed, recordFigures } from './helpers/fuzz.js';
import { tempDir, treeHash } from './helpers/site.js';

const NOW = new Date('2026-11-22T00:00:00Z');
const run = promisify(execFile);

// ------------------------------------------------------------ a small valid site

const POSTS = ['first-post', 'second-post', 'third-post', 'fourth-post', 'fifth-post'];

function post(slug: string, i: number): string {
  const next = POSTS[(i + 1) % POSTS.length];
  return [
    '---',
    `title: "Report ${i}: what the logs said"`,
    `date: 2025-0${1 + i}-1${i}`,
    'tags:',
    '  - email',
    `  - topic-${i % 2}`,
    'summary: One sentence on what happened.',
    '---',
    '',
    `I measured it for six weeks. See [the next report](/blog/${next}) and [the relay](/projects/relay).`,
    '',
    '## What changed',
    '',
    '- one',
    '- two',
    '',
    '| a | b |',
    '| - | - |',
    '| 1 | 2 |',
    '',
  ].join('\n');
}

const FILES: Record<string, string> = {
  'profile.md':
    '---\nname: Ada Example\nheadline: Independent platform engineer\nlocation: Lisbon, Portugal\nexpertise:\n  - email deliverability\n  - SSH\navailability:\n  status: available\n  note: From March\ncontact:\n  email: ada@example.com\n---\n\nI help small teams. Start with [the first report](/blog/first-post).\n',
  'services/audit.md':
    '---\ntitle: Deliverability audit\nsummary: One sentence on the consulting area.\nbest_fit:\n  - a SaaS whose invoices land in spam\norder: 1\n---\n\nWhat the audit covers, see [the relay](/projects/relay).\n',
  'projects/relay.md':
    '---\ntitle: Mail relay\nstatus: live\nsummary: A relay for a B2B SaaS.\nurl: https://example.com\nstarted: 2024-03\ntags: [email]\n---\n\nThe relay. See [the second report](/blog/second-post).\n',
  'projects/old-tool.md':
    '---\ntitle: Old tool\nstatus: sunset\nsummary: Retired.\nstarted: 2019-03\nended: 2024-05\n---\n\nRetired in 2024.\n',
  ...Object.fromEntries(POSTS.map((slug, i) => [`posts/${slug}.md`, post(slug, i)])),
};

async function writeTree(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
  }
}

// ------------------------------------------------------------ corruptions

/** A content tree as path → bytes; corruptions edit it. */
type Tree = Record<string, string | Uint8Array>;

interface Corruption {
  name: string;
  /** The file whose problem must be reported (by file or in a message). */
  file: string;
  /** False for changes that are allowed and must still build. */
  error: boolean;
  /** Applied after the others (a change of line endings, which the others' patterns do not expect). */
  last?: boolean;
  /** The front-matter key it writes whole: a later change that writes the same key of the same file undoes this one. */
  sets?: string;
  /**
   * Bytes that are not UTF-8: a later change of the same file reads it as
   * text, which keeps them as U+FFFD (folio reads both alike), unless it
   * rewrites the lines that held them.
   */
  bytes?: boolean;
  apply(tree: Tree): void;
}

const text = (v: string | Uint8Array) => (typeof v === 'string' ? v : Buffer.from(v).toString('utf8'));

/** Front-matter lines of a Markdown file (between the two ---), or all lines of site.yaml. */
function editFields(tree: Tree, path: string, edit: (lines: string[]) => string[]): void {
  const all = text(tree[path]!).split('\n');
  if (path.endsWith('.yaml')) {
    tree[path] = edit(all).join('\n');
    return;
  }
  const close = all.indexOf('---', 1);
  tree[path] = ['---', ...edit(all.slice(1, close)), ...all.slice(close)].join('\n');
}

/** Removes a top-level key with its indented continuation lines; returns the index it was at (or the end). */
function removeKey(lines: string[], key: string): number {
  const at = lines.findIndex((l) => l.startsWith(`${key}:`));
  if (at === -1) return lines.length;
  let end = at + 1;
  while (end < lines.length && /^\s+\S|^\s*-/.test(lines[end]!) && !/^\S/.test(lines[end]!)) end++;
  lines.splice(at, end - at);
  return at;
}

function setKey(lines: string[], key: string, value: string): string[] {
  const out = [...lines];
  const at = removeKey(out, key);
  out.splice(at, 0, `${key}: ${value}`);
  return out;
}

/** Adds an alias to a flow list of aliases, or a new list; a list in another shape (a corruption's) is left as it is. */
function addAlias(lines: string[], alias: string): string[] {
  const at = lines.findIndex((l) => l.startsWith('aliases:'));
  if (at === -1) return [...lines, `aliases: [${alias}]`];
  return lines.map((l, i) => (i === at ? l.replace(/^aliases: \[/, `aliases: [${alias}, `) : l));
}

const REQUIRED: Record<string, string[]> = {
  post: ['title', 'date'],
  project: ['title', 'status'],
  service: ['title', 'summary', 'best_fit'],
  profile: ['name', 'headline', 'location', 'expertise', 'availability', 'contact'],
  site: ['title', 'description', 'site_url', 'language'],
};

const WRONG: Record<string, [string, string[]][]> = {
  post: [
    ['title', ['[a, b]', '{x: 1}', '""', '"   "']],
    ['date', ['yesterday', '2026-13-45', '12345', '[2026]', '2026/01/01', '2026-02-30', '"2026-1-1"']],
    ['tags', ['{a: 1}', '[[nested]]', '[{a: b}]', '["!!!"]', '[a: b]']],
    ['draft', ['"yes"', '1', '[true]']],
    ['updated', ['not-a-date', '2020-01-01', '{a: 1}']],
    ['slug', ['Not A Slug!', '[x]', '"../etc/passwd"', '"-leading"', 'UPPER']],
    ['summary', ['{a: b}', '[1, 2]']],
    ['aliases', ['old-slug', '"/a b"', '{a: 1}', '["/x?y=1"]', '[/api/v1/posts/x]', '[/x.md]', '[[/nested]]', '["/blog/:slug"]']],
  ],
  project: [
    ['status', ['paused', 'Live', '[live]', '{a: 1}', '""', 'lvie']],
    ['url', ['not a url', 'ftp://x', 'javascript:alert(1)', '[a]']],
    ['started', ['someday', '2024-13', '{a: 1}']],
    ['ended', ['2010-01', 'never']],
    ['id', ['Bad Id', '"a/b"', '[x]']],
    ['title', ['[a]', '{}']],
    ['aliases', ['relay-old', '["/blog/*"]']],
  ],
  service: [
    ['order', ['1.5', 'first', '[1]', '{a: 1}']],
    ['best_fit', ['{a: 1}', '[{a: b}]', '[[x]]']],
    ['summary', ['[1]', '{a: b}']],
    ['aliases', ['["//evil.example"]', '[/a/../b]']],
    ['id', ['Bad Id', '[x]']],
  ],
  profile: [
    ['availability', ['open', '{note: x}', '[1]', '{status: ""}']],
    ['contact', ['{email: nope}', '[]', 'hello@example.com', '{url: https://x}']],
    ['expertise', ['{a: 1}', '[{a: b}]']],
    ['name', ['[a]', '{a: 1}']],
    ['photo', ['[a]', '{a: 1}', 'https://example.com/me.png', './me.png']],
    ['photo_alt', ['"   "', '[a]', 'no photo for this alt']],
  ],
  site: [
    ['site_url', ['ftp://x', 'https://x/', 'not a url', '[a]', '""', 'https://exa mple.com']],
    ['title', ['[a]', '{a: 1}']],
    [
      'theme',
      [
        '{accent: "#ffff00"}',
        '{accent: teal}',
        '{accent_dark: "#222222"}',
        '{font: comic}',
        '{accnet: "#000000"}',
        '[1]',
        '"#000"',
        '{accent: "#12345"}',
        '{accent: 255}',
      ],
    ],
    [
      'api',
      [
        '{versions: {v1: {deprecated: 2027-01-01, sunset: 2027-02-01}}}',
        '{versions: []}',
        '{versions: {v1: {sunset: 2027-02-01}}}',
        '{versions: {v1: {deprecated: someday}}}',
        '[1]',
      ],
    ],
  ],
};

/** DUPLICATE: the first top-level line again (a duplicate key). */
const YAML_BOMB =
  'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]';
const BAD_YAML = [
  'DUPLICATE',
  YAML_BOMB,
  'title: "unclosed',
  'tags: [a, b',
  'bad: value: other',
  '\tindented: with a tab',
  '- a list item at the top',
  'key: {a: 1',
  '&anchor x: *nope',
  'x: @reserved',
  '{ a',
  'x: "\\q"',
];

function kindOf(path: string): string {
  if (path === 'site.yaml') return 'site';
  if (path === 'profile.md') return 'profile';
  return path.split('/')[0]!.replace(/s$/, '');
}

function corruptionArb(paths: readonly string[]): fc.Arbitrary<Corruption> {
  const path = fc.constantFrom(...paths);
  const markdown = fc.constantFrom(...paths.filter((p) => p.endsWith('.md')));
  const postPath = fc.constantFrom(...paths.filter((p) => p.startsWith('posts/')));
  return fc.oneof(
    fc.tuple(path, fc.constantFrom(...BAD_YAML), fc.nat()).map(([file, line, pos]) => ({
      name: `bad YAML "${line}" in ${file}`,
      file,
      error: true,
      apply: (t: Tree) =>
        editFields(t, file, (lines) => {
          // Between two top-level keys: inside a block the line could read as a continuation.
          const tops = [...lines.keys(), lines.length].filter((i) => i === lines.length || /^[^\s-]/.test(lines[i]!));
          const at = tops[pos % tops.length]!;
          const inserted = line === 'DUPLICATE' ? (lines.find((l) => /^[^\s-]/.test(l)) ?? 'x: 1\nx: 2') : line;
          return [...lines.slice(0, at), inserted, ...lines.slice(at)];
        }),
    })),
    fc.tuple(path, fc.nat(), fc.nat()).map(([file, a, b]) => {
      const choices = WRONG[kindOf(file)]!;
      const [key, values] = choices[a % choices.length]!;
      const value = values[b % values.length]!;
      return {
        name: `${key}: ${value} in ${file}`,
        file,
        error: true,
        sets: key,
        apply: (t: Tree) => editFields(t, file, (lines) => setKey(lines, key, value)),
      };
    }),
    fc.tuple(path, fc.nat()).map(([file, a]) => {
      const keys = REQUIRED[kindOf(file)]!;
      const key = keys[a % keys.length]!;
      return {
        name: `no ${key} in ${file}`,
        file,
        error: true,
        apply: (t: Tree) => editFields(t, file, (lines) => (removeKey(lines, key), lines)),
      };
    }),
    fc.tuple(path, fc.nat(), fc.nat()).map(([file, a, cut]) => {
      const keys = REQUIRED[kindOf(file)]!;
      const key = keys[a % keys.length]!;
      const i = cut % key.length;
      const typo = key.length > 3 ? key.slice(0, i) + key.slice(i + 1) : `${key}x`;
      return {
        name: `"${typo}" for "${key}" in ${file}`,
        file,
        error: true,
        apply: (t: Tree) =>
          editFields(t, file, (lines) => lines.map((l) => (l.startsWith(`${key}:`) ? `${typo}:${l.slice(key.length + 1)}` : l))),
      };
    }),
    postPath.map((file) => ({
      name: `a copy of ${file} with its slug`,
      file: 'posts/zz-copy.md',
      error: true,
      apply: (t: Tree) => {
        const slug = file.slice('posts/'.length, -3);
        t['posts/zz-copy.md'] = text(t[file]!).replace(/^---\n/, `---\nslug: ${slug}\n`);
      },
    })),
    fc
      .tuple(
        markdown,
        fc.constantFrom('/blog/no-such-post', '/projects/nope', '/about/team', '/blog/tags/nope-nope', '/api/v2/posts', '/developers/x'),
      )
      .map(([file, url]) => ({
        name: `a link to ${url} in ${file}`,
        file,
        error: true,
        apply: (t: Tree) => {
          t[file] = `${text(t[file]!)}\n\nSee [this](${url}) as well.\n`;
        },
      })),
    fc
      .tuple(markdown, fc.constantFrom('![](./a.png)', '![  ](/b.svg)', '![][ref]\n\n[ref]: ./c.gif', '![\n](./d.webp)'))
      .map(([file, image]) => ({
        name: `an image without alt text "${image}" in ${file}`,
        file,
        error: true,
        apply: (t: Tree) => {
          t[file] = `${text(t[file]!)}\n\n${image}\n`;
        },
      })),
    fc.tuple(path, fc.uint8Array({ minLength: 1, maxLength: 512 })).map(([file, bytes]) => ({
      name: `binary bytes in ${file}`,
      file,
      error: true,
      apply: (t: Tree) => {
        t[file] = Buffer.concat([Buffer.from(bytes), Buffer.from([0]), Buffer.from(bytes)]);
      },
    })),
    fc
      .tuple(
        path,
        fc.constantFrom([0xff], [0xfe, 0xff], [0xc3, 0x28], [0xe9], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]),
        fc.nat(),
      )
      .map(([file, bad, pos]) => ({
        name: `the bytes ${bad.map((b) => b.toString(16)).join(' ')} in ${file}`,
        file,
        error: true,
        bytes: true,
        apply: (t: Tree) => {
          const bytes = Buffer.from(text(t[file]!));
          const at = pos % bytes.length;
          t[file] = Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]);
        },
      })),
    path.map((file) => ({ name: `${file} emptied`, file, error: true, apply: (t: Tree) => void (t[file] = '') })),
    markdown.map((file) => ({
      name: `${file} without front-matter`,
      file,
      error: true,
      apply: (t: Tree) => void (t[file] = text(t[file]!).replace(/^---\n[\s\S]*?\n---\n/, '')),
    })),
    markdown.map((file) => ({
      name: `${file} with an unclosed front-matter`,
      file,
      error: true,
      apply: (t: Tree) => void (t[file] = text(t[file]!).replace(/\n---\n/, '\n\n')),
    })),
    fc
      .tuple(markdown, fc.constantFrom('>', '- ', '* ', '1. ', '> - '), fc.integer({ min: 5_000, max: 20_000 }))
      .map(([file, unit, depth]) => ({
        name: `${file} nesting "${unit}" ${depth} deep`,
        file,
        error: true,
        apply: (t: Tree) => void (t[file] = `${text(t[file]!)}\n\n${unit.repeat(depth)}deep\n`),
      })),
    fc
      .tuple(
        fc.constantFrom(...paths.filter((p) => /^(posts|projects|services)\//.test(p))),
        fc.constantFrom(
          '/blog/first-post',
          '/blog/first-post.md',
          '/llms.txt',
          '/projects/relay',
          '/projects',
          '/services/audit',
          '/services',
          '/mcp',
        ),
      )
      .map(([file, alias]) => ({
        name: `the alias ${alias}, a live address, in ${file}`,
        file,
        error: true,
        sets: 'aliases',
        apply: (t: Tree) => editFields(t, file, (lines) => setKey(lines, 'aliases', `[${alias}]`)),
      })),
    fc
      .tuple(postPath, postPath)
      .filter(([a, b]) => a !== b)
      .map(([a, b]) => ({
        name: `the alias /blog/shared-old in ${a} and ${b}`,
        file: a < b ? b : a,
        error: true,
        apply: (t: Tree) => {
          for (const file of [a, b]) editFields(t, file, (lines) => addAlias(lines, '/blog/shared-old'));
        },
      })),
    // Allowed changes: they must still build.
    postPath.map((file) => ({
      name: `a former slug as an alias of ${file}`,
      file,
      error: false,
      apply: (t: Tree) =>
        editFields(t, file, (lines) =>
          addAlias(addAlias(lines, `/blog/old-${file.slice('posts/'.length, -3)}`), `/2019/${file.slice('posts/'.length, -3)}.html`),
        ),
    })),
    fc.constantFrom('{accent: "#0b5cad", font: serif}', '{accent_dark: "#9cc4f5"}', '{font: mono}').map((theme) => ({
      name: `theme: ${theme}`,
      file: 'site.yaml',
      error: false,
      sets: 'theme',
      apply: (t: Tree) => editFields(t, 'site.yaml', (lines) => setKey(lines, 'theme', theme)),
    })),
    fc
      .tuple(
        markdown,
        fc.constantFrom(
          '![A chart](./chart.png)',
          '![Remote](https://example.com/x.png)',
          '![A \\[bracket\\]](</with space.svg> "T")',
          '![Ref][r]\n\n[r]: ./r.jpg',
        ),
      )
      .map(([file, image]) => ({
        name: `an image "${image}" in ${file} (not resolved in process)`,
        file,
        error: false,
        apply: (t: Tree) => {
          t[file] = `${text(t[file]!)}\n\n${image}\n`;
        },
      })),
    fc.tuple(markdown, fc.constantFrom('mood: happy', 'x_custom: [1, 2]', 'reviewed_by: { name: Bo }')).map(([file, line]) => ({
      name: `an unknown field "${line}" in ${file}`,
      file,
      error: false,
      apply: (t: Tree) => editFields(t, file, (lines) => [...lines, line]),
    })),
    path.map((file) => ({
      name: `${file} with a BOM and CRLF`,
      file,
      error: false,
      last: true,
      apply: (t: Tree) => void (t[file] = `\uFEFF${text(t[file]!).replace(/\n/g, '\r\n')}`),
    })),
  );
}

function applyOrder(corruptions: Corruption[]): Corruption[] {
  return [...corruptions.filter((c) => !c.last), ...corruptions.filter((c) => c.last)];
}

/**
 * The corruptions still in the tree once all are applied: those no later one
 * undid by writing the same key of the same file, and bytes that are not
 * UTF-8 that the file still holds (as such, or as the U+FFFD a later change
 * read them as).
 */
function standing(corruptions: Corruption[]): Corruption[] {
  const order = applyOrder(corruptions);
  const tree: Tree = { ...base };
  for (const c of order) c.apply(tree);
  return order.filter((c, i) =>
    c.bytes
      ? text(tree[c.file] ?? '').includes('\uFFFD')
      : c.sets === undefined || !order.slice(i + 1).some((d) => d.file === c.file && d.sets === c.sets),
  );
}

// ------------------------------------------------------------ checks

function lineCount(bytes: string | Uint8Array | undefined): number {
  return bytes === undefined ? 1 : text(bytes).split('\n').length;
}

/** What must hold for every reported problem (D2). */
function problemViolations(problems: Problem[], tree: Tree, dir: string): string[] {
  const out: string[] = [];
  for (const p of problems) {
    const rel = p.file.startsWith(`${dir}/`) ? p.file.slice(dir.length + 1) : p.file;
    const where = formatProblem(p).split('\n');
    if (!/^.+:\d+:\d+: .+$/.test(where[0]!)) out.push(`not path:line:column: message: ${where[0]}`);
    if (!/^ {2}hint: \S.*$/.test(where[1] ?? '') || where.length !== 2) out.push(`no one-line hint: ${JSON.stringify(where.slice(1))}`);
    if (!(rel in tree) && rel !== 'site.yaml' && rel !== 'profile.md') out.push(`names a file that is not in the content: ${p.file}`);
    if (!Number.isInteger(p.line) || p.line < 1 || p.line > lineCount(tree[rel]) + 1)
      out.push(`line ${p.line} is outside ${rel} (${lineCount(tree[rel])} lines)`);
    if (!Number.isInteger(p.column) || p.column < 1) out.push(`column ${p.column} in ${rel}`);
    if (/\n\s+at /.test(p.message) || /\n\s+at /.test(p.hint)) out.push(`a stack trace in the message of ${rel}`);
  }
  return out;
}

function sourcesOf(tree: Tree, dir: string): ContentSources {
  const src = (path: string): Source => ({ file: `${dir}/${path}`, text: text(tree[path]!) });
  const folder = (name: string) =>
    Object.keys(tree)
      .filter((p) => p.startsWith(`${name}/`))
      .sort()
      .map(src);
  return {
    dir,
    site: 'site.yaml' in tree ? src('site.yaml') : null,
    profile: 'profile.md' in tree ? src('profile.md') : null,
    services: folder('services'),
    posts: folder('posts'),
    projects: folder('projects'),
  };
}

// ------------------------------------------------------------ the tests

let base: Tree;

beforeAll(async () => {
  base = { 'site.yaml': await readFile('content/site.yaml', 'utf8'), ...FILES };
});

describe('random corruptions of valid content (in process)', () => {
  it('the base site builds', () => {
    expect(buildSite(sourcesOf(base, 'fz'), { now: NOW }).posts.length).toBe(POSTS.length);
  });

  it(
    'every corruption is reported as path:line:column with a hint, and allowed changes still build',
    { timeout: fuzzBudget(60_000) },
    () => {
      const seed = fuzzSeed();
      let inputs = 0;
      let failures = 0;
      const started = performance.now();
      const details = fc.check(
        // Each change once: the same edit twice is another change (a key written twice is invalid YAML).
        fc.property(
          fc.uniqueArray(corruptionArb(Object.keys(base)), { minLength: 1, maxLength: 3, selector: (c) => c.name }),
          (corruptions) => {
            inputs++;
            const tree: Tree = { ...base };
            for (const c of applyOrder(corruptions)) c.apply(tree);
            const expectError = standing(corruptions).some((c) => c.error);
            let problems: Problem[] = [];
            try {
              buildSite(sourcesOf(tree, 'fz'), { now: NOW });
            } catch (error) {
              if (!(error instanceof ContentError)) {
                failures++;
                throw new Error(
                  `${corruptions.map((c) => c.name).join(' + ')}: the build threw ${(error as Error).name}: ${(error as Error).message.slice(0, 200)}`,
                  { cause: error },
                );
              }
              problems = error.problems;
            }
            const bad = problemViolations(problems, tree, 'fz');
            if (expectError && problems.length === 0) bad.push('the build succeeded');
            if (!expectError && problems.length) bad.push(`an allowed change failed: ${problems.map((p) => p.message).join(' | ')}`);
            // Each corrupted file is named, unless another file's problem stopped the build before the cross-file checks.
            const named = (file: string) => problems.some((p) => p.file === `fz/${file}` || p.message.includes(`fz/${file}`));
            const perFile = problems.some((p) => !/points at a page that does not exist/.test(p.message));
            for (const c of standing(corruptions)) {
              if (!c.error || named(c.file)) continue;
              const crossFile = /^a link to |^a copy of |^the alias /.test(c.name);
              if (crossFile && perFile) continue;
              bad.push(`${c.name}: no problem names ${c.file}`);
            }
            if (bad.length) {
              failures++;
              throw new Error(
                `${corruptions.map((c) => c.name).join(' + ')}:\n  ${bad.join('\n  ')}\n${problems.map(formatProblem).join('\n')}`,
              );
            }
          },
        ),
        { numRuns: fuzzRuns(150), seed, interruptAfterTimeLimit: fuzzBudget(10_000), markInterruptAsFailure: false },
      );
      recordFigures({
        name: 'content: corruptions (in process)',
        target: 'buildSite over a 10-file site',
        inputs,
        requests: 0,
        failures,
        seed,
        ms: Math.round(performance.now() - started),
      });
      expect(details.failed, failureReport(details)).toBe(false);
      expect(inputs).toBeGreaterThan(20);
    },
  );
});

describe('inputs the fuzzer found (regressions)', () => {
  const build = (tree: Tree) => {
    try {
      buildSite(sourcesOf(tree, 'fz'), { now: NOW });
      return [];
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      return error.problems.map(formatProblem);
    }
  };

  it('site.yaml with a byte that is not UTF-8 is reported at its line and column, like a Markdown file', () => {
    const yaml = Buffer.from(text(base['site.yaml']!));
    const at = yaml.indexOf('Consulting');
    const tree = { ...base, 'site.yaml': Buffer.concat([yaml.subarray(0, at), Buffer.from([0xff]), yaml.subarray(at)]) };
    expect(build(tree)).toEqual([
      expect.stringMatching(
        /^fz\/site\.yaml:1:\d+: This file is not valid UTF-8 text: it has bytes that UTF-8 does not allow, .*\n {2}hint: Save it as UTF-8/,
      ),
    ]);
  });

  it('a post holding the U+FFFD a failed conversion leaves is reported at it, with the character to write back', () => {
    const post = text(base['posts/second-post.md']!);
    const at = post.lastIndexOf('\n', post.length - 2) + 1;
    const tree = { ...base, 'posts/second-post.md': `${post.slice(0, at)}Caf\uFFFD ${post.slice(at)}` };
    const line = post.slice(0, at).split('\n').length;
    expect(build(tree)).toEqual([
      `fz/posts/second-post.md:${line}:4: This file is not valid UTF-8 text: it has bytes that UTF-8 does not allow, or the character � (U+FFFD) that a failed conversion leaves in their place.\n  hint: Save it as UTF-8 (most editors offer "Save with encoding"), and where � stands, write the character it replaced.`,
    ]);
  });

  it('site.yaml with an alias whose anchor is missing is reported at the alias (it threw a ReferenceError)', () => {
    const yaml = `${text(base['site.yaml']!)}\n&anchor x: *nope\n`;
    const line = yaml.split('\n').length - 1;
    expect(build({ ...base, 'site.yaml': yaml })).toEqual([
      expect.stringMatching(
        new RegExp(`^fz/site\\.yaml:${line}:12: This is not valid YAML: Unresolved alias .*nope\\.\\n {2}hint: An alias`),
      ),
    ]);
  });

  it('a YAML bomb (aliases of aliases) in site.yaml or in front-matter is reported, not expanded', () => {
    const yaml = `${text(base['site.yaml']!)}\n${YAML_BOMB}\n`;
    expect(build({ ...base, 'site.yaml': yaml })).toEqual([
      expect.stringMatching(/^fz\/site\.yaml:\d+:\d+: This is not valid YAML: Excessive alias count/),
    ]);
    const post = text(base['posts/first-post.md']!).replace('---\n', `---\n${YAML_BOMB}\n`);
    expect(build({ ...base, 'posts/first-post.md': post })).toEqual([
      expect.stringMatching(/^fz\/posts\/first-post\.md:3:\d+: The front-matter is not valid YAML: Excessive alias count/),
    ]);
  });

  it('an unresolved alias in front-matter is reported at its line, not 1:1', () => {
    const post = text(base['posts/first-post.md']!).replace('summary: One sentence on what happened.', 'summary: *nope');
    const line = post.split('\n').findIndex((l) => l.includes('*nope')) + 1;
    expect(build({ ...base, 'posts/first-post.md': post })).toEqual([
      expect.stringMatching(new RegExp(`^fz/posts/first-post\\.md:${line}:10: The front-matter is not valid YAML: Unresolved alias`)),
    ]);
  });

  it('site.yaml holding a NUL byte is reported as binary', () => {
    expect(build({ ...base, 'site.yaml': `${text(base['site.yaml']!)}\u0000` })).toEqual([
      expect.stringMatching(/^fz\/site\.yaml:1:1: This file holds binary data \(a NUL byte\), not YAML text\./),
    ]);
  });

  it.each(['> ', '- ', '1. ', '> - ', '* '])(
    'a body nesting "%s" 20,000 deep is reported at its line (it overflowed the parser\'s stack)',
    (unit) => {
      const file = 'posts/first-post.md';
      const original = text(base[file]!);
      const problems = build({ ...base, [file]: `${original}\n${unit.repeat(20_000)}deep\n` });
      expect(problems).toEqual([
        expect.stringMatching(
          new RegExp(
            `^fz/posts/first-post\\.md:${original.split('\n').length + 1}:1: This line nests more than 100 block quotes or list items`,
          ),
        ),
      ]);
    },
  );

  it.each(['profile.md', 'projects/relay.md', 'posts/second-post.md', 'services/audit.md', 'site.yaml'])(
    '%s saved with CRLF line endings (and a BOM) builds the same site',
    (file) => {
      const crlf = { ...base, [file]: `\uFEFF${text(base[file]!).replace(/\n/g, '\r\n')}` };
      expect(build(crlf)).toEqual([]);
      const a = buildSite(sourcesOf(base, 'fz'), { now: NOW });
      const b = buildSite(sourcesOf(crlf, 'fz'), { now: NOW });
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    },
  );

  it('a CRLF file with a problem reports the same line and column as with LF', () => {
    const file = 'posts/third-post.md';
    const broken = text(base[file]!).replace('date: 2025-03-12', 'date: someday');
    const lf = build({ ...base, [file]: broken });
    expect(lf).toEqual([expect.stringMatching(/^fz\/posts\/third-post\.md:3:1: `date` is not a date/)]);
    expect(build({ ...base, [file]: broken.replace(/\n/g, '\r\n') })).toEqual(lf);
  });

  it('nesting 100 deep is still rendered', () => {
    const file = 'posts/first-post.md';
    expect(build({ ...base, [file]: `${text(base[file]!)}\n${'> '.repeat(100)}deep\n` })).toEqual([]);
  });
});

// ------------------------------------------------------------ through the real CLI

async function folio(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/folio.js', ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** stderr of a failed build: problem and hint lines in pairs, folio's own notes, nothing else. */
function stderrViolations(stderr: string): string[] {
  const out: string[] = [];
  const lines = stderr.split('\n').filter((l) => l !== '' && !/^\d+ content problems?:$/.test(l) && !l.startsWith('folio: '));
  if (/^\s+at /m.test(stderr)) out.push('a stack trace');
  if (lines.length === 0) out.push('no problem reported');
  for (let i = 0; i < lines.length; i += 2) {
    if (!/^.+:\d+:\d+: .+$/.test(lines[i]!)) out.push(`not path:line:column: message: ${lines[i]}`);
    if (!/^ {2}hint: \S/.test(lines[i + 1] ?? '')) out.push(`no hint after: ${lines[i]}`);
  }
  return out;
}

describe('random corruptions through the real CLI, over a previous dist (D2, D40)', () => {
  let work: string;
  let out: string;
  let before: Record<string, string>;

  beforeAll(async () => {
    work = await tempDir('folio-content-fuzz-');
    await writeTree(join(work, 'good'), base);
    out = join(work, 'dist');
    const ok = await folio(['build', '--content', join(work, 'good'), '--out', out, '--now', '2026-11-22']);
    expect(ok.code, ok.stderr).toBe(0);
    before = await treeHash(out);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(
    'exit 1, every problem as path:line:column with a hint, no stack trace, the previous dist byte-identical',
    { timeout: fuzzBudget(120_000) },
    async () => {
      const seed = fuzzSeed();
      const runs = fuzzRuns(3);
      const samples = fc.sample(
        fc
          .uniqueArray(corruptionArb(Object.keys(base)), { minLength: 2, maxLength: 4, selector: (c) => c.name })
          .filter((cs) => standing(cs).some((c) => c.error)),
        { seed, numRuns: runs },
      );
      let failures = 0;
      const started = performance.now();
      for (const [i, corruptions] of samples.entries()) {
        const tree: Tree = { ...base };
        for (const c of applyOrder(corruptions)) c.apply(tree);
        const dir = join(work, `case-${i}`);
        await writeTree(dir, tree);
        const result = await folio(['build', '--content', dir, '--out', out, '--now', '2026-11-22']);
        const what = `${corruptions.map((c) => c.name).join(' + ')} (seed ${seed})`;
        const bad = [...(result.code === 1 ? [] : [`exit ${result.code}`]), ...stderrViolations(result.stderr)];
        if (bad.length) failures++;
        expect(bad, `${what}\n${result.stderr}`).toEqual([]);
        expect(await treeHash(out), what).toEqual(before);
      }
      recordFigures({
        name: 'content: corruptions (CLI)',
        target: 'folio build over a previous dist',
        inputs: samples.length,
        requests: 0,
        failures,
        seed,
        ms: Math.round(performance.now() - started),
      });
    },
  );

  it(
    'a huge file nested 200,000 deep, and a 4 MB binary: reported, exit 1, the previous dist byte-identical',
    { timeout: fuzzBudget(120_000) },
    async () => {
      const dir = join(work, 'huge');
      await cp(join(work, 'good'), dir, { recursive: true });
      const deep = `---\ntitle: Deep\ndate: 2025-01-01\n---\n\n${'> '.repeat(200_000)}deep\n`;
      await writeFile(join(dir, 'posts', 'deep.md'), deep);
      await writeFile(join(dir, 'posts', 'blob.md'), Buffer.alloc(4 * 1024 * 1024, 0x00));
      const result = await folio(['build', '--content', dir, '--out', out, '--now', '2026-11-22']);
      expect(result.code, result.stderr).toBe(1);
      expect(stderrViolations(result.stderr), result.stderr).toEqual([]);
      expect(result.stderr).toMatch(/posts\/deep\.md:\d+:\d+: /);
      expect(result.stderr).toMatch(/posts\/blob\.md:1:1: .*binary/);
      expect(await treeHash(out)).toEqual(before);
    },
  );
});

// ------------------------------------------------------------ image files through the real CLI (D44, D45)

/** A valid image file, then a corruption of its bytes or of the path naming it. */
interface ImageCorruption {
  name: string;
  apply(tree: Tree, pic: Buffer): void;
}

const PIC = 'posts/img/pic.png';
const PHOTO = 'me.svg';

function imageCorruptionArb(others: { jpeg: Buffer; svg: Buffer }): fc.Arbitrary<ImageCorruption> {
  return fc.oneof(
    fc.nat().map((cut) => ({
      name: `the PNG cut at ${cut}`,
      apply: (t: Tree, pic: Buffer) => void (t[PIC] = pic.subarray(0, cut % pic.length)),
    })),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => ({
      name: `the PNG with bytes ${flips.map(([at, b]) => `${at}=${b}`).join(',')}`,
      apply: (t: Tree, pic: Buffer) => {
        const bytes = Buffer.from(pic);
        for (const [at, b] of flips) bytes[at % bytes.length] = b;
        t[PIC] = bytes;
      },
    })),
    fc
      .uint8Array({ minLength: 0, maxLength: 2048 })
      .map((bytes) => ({ name: `${bytes.length} random bytes as the PNG`, apply: (t: Tree) => void (t[PIC] = bytes) })),
    fc
      .constantFrom('jpeg', 'svg')
      .map((kind) => ({ name: `${kind} bytes named .png`, apply: (t: Tree) => void (t[PIC] = others[kind as 'jpeg' | 'svg']) })),
    fc
      .constantFrom(
        '<svg',
        '<svg xmlns="http://www.w3.org/2000/svg"><g>',
        'not svg at all',
        '',
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;&b;</svg>',
      )
      .map((svg) => ({
        name: `the photo SVG as ${JSON.stringify(svg)}`,
        apply: (t: Tree) => void (t[PHOTO] = svg),
      })),
    fc.constantFrom('../outside.png', '/../../x.png', './img/missing.png', './img/pic.bmp', '/img/pic.png', '').map((path) => ({
      name: `the post naming "${path}"`,
      apply: (t: Tree) => void (t['posts/first-post.md'] = text(t['posts/first-post.md']!).replace('./img/pic.png', path)),
    })),
  );
}

describe('random image files through the real CLI, over a previous dist (D44, D45)', () => {
  let work: string;
  let good: string;
  let tree: Tree;
  let pic: Buffer;
  let others: { jpeg: Buffer; svg: Buffer };

  beforeAll(async () => {
    const { default: sharp } = await import('sharp');
    pic = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    others = {
      jpeg: await sharp({ create: { width: 40, height: 20, channels: 3, background: '#aa0000' } })
        .jpeg()
        .toBuffer(),
      svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle r="10"/></svg>'),
    };
    tree = {
      ...base,
      [PIC]: pic,
      [PHOTO]: others.svg,
      'posts/first-post.md': `${text(base['posts/first-post.md']!)}\n![A blue field](./img/pic.png)\n`,
      'profile.md': text(base['profile.md']!).replace(
        'name: Ada Example',
        `name: Ada Example\nphoto: ./${PHOTO}\nphoto_alt: A drawn circle`,
      ),
    };
    work = await tempDir('folio-image-fuzz-');
    good = join(work, 'good-dist');
    await writeTree(join(work, 'good'), tree);
    const ok = await folio(['build', '--content', join(work, 'good'), '--out', good, '--now', '2026-11-22']);
    expect(ok.code, ok.stderr).toBe(0);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(
    'never crashes: exit 0, or exit 1 with every problem at path:line:column and a hint and the previous dist byte-identical',
    { timeout: fuzzBudget(180_000) },
    async () => {
      const seed = fuzzSeed();
      const samples = fc.sample(imageCorruptionArb(others), { seed, numRuns: fuzzRuns(6) });
      const before = await treeHash(good);
      let failures = 0;
      let rejected = 0;
      const started = performance.now();
      for (const [i, corruption] of samples.entries()) {
        const t: Tree = { ...tree };
        corruption.apply(t, pic);
        const dir = join(work, `case-${i}`);
        await writeTree(dir, t);
        const out = join(work, `dist-${i}`);
        await cp(good, out, { recursive: true });
        const result = await folio(['build', '--content', dir, '--out', out, '--now', '2026-11-22']);
        const what = `${corruption.name} (seed ${seed})`;
        const bad = result.code === 0 ? [] : [...(result.code === 1 ? [] : [`exit ${result.code}`]), ...stderrViolations(result.stderr)];
        if (result.code === 1) {
          rejected++;
          if (!/(posts\/first-post|profile)\.md:\d+:\d+: /.test(result.stderr)) bad.push('no problem names the file that names the image');
          expect(await treeHash(out), what).toEqual(before);
        }
        if (bad.length) failures++;
        expect(bad, `${what}\n${result.stderr}`).toEqual([]);
        await rm(out, { recursive: true, force: true });
      }
      recordFigures({
        name: 'content: image files (CLI)',
        target: 'folio build over a previous dist',
        inputs: samples.length,
        requests: 0,
        failures,
        seed,
        ms: Math.round(performance.now() - started),
      });
      expect(rejected).toBeGreaterThan(0);
    },
  );
});
