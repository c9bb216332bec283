// The front-matter fast path (D2) must read exactly what `yaml`
// reads, or leave the text to `yaml`: compared on every YAML text in the
// repository's content and fixtures, a generated corpus, and the corners of
// YAML where js-yaml's own schemas and `yaml` disagree.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
// @ts-expect-error: the benchmark's generator is plain JavaScript
import { corpusFiles } from '../bench/corpus.js';
import { quickYaml } from '../build/content/quick-yaml.js';

/** What `yaml` reads, as the slow path does; `error` when it reports one. */
function reference(text: string): { error: true } | { error: false; value: unknown } {
  try {
    const doc = parseDocument(text, { uniqueKeys: true });
    return doc.errors.length ? { error: true } : { error: false, value: doc.toJS() ?? null };
  } catch {
    return { error: true };
  }
}

/** The front-matter text of a Markdown file as gray-matter hands it to the engine, or the whole of a .yaml file. */
function yamlOf(name: string, text: string): string | null {
  const t = text.replace(/\r\n?/g, '\n');
  if (name.endsWith('.yaml')) return t;
  if (!t.startsWith('---')) return null;
  const end = t.indexOf('\n---', 3);
  return end < 0 ? null : t.slice(3, end + 1);
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(md|yaml)$/.test(name)) yield path;
  }
}

function expectSameAsYaml(text: string): 'quick' | 'declined' {
  const quick = quickYaml(text);
  if (!quick.ok) return 'declined';
  const ref = reference(text);
  expect(ref.error, `js-yaml read what yaml rejects: ${JSON.stringify(text)}`).toBe(false);
  if (!ref.error) expect(quick.value, JSON.stringify(text)).toEqual(ref.value);
  return 'quick';
}

describe('quickYaml', () => {
  it('reads the sample content and the test fixtures as yaml does, and most of it quickly', () => {
    const texts = [...files('content'), ...files('test/fixtures')]
      .map((f) => yamlOf(f, readFileSync(f, 'utf8')))
      .filter((t): t is string => t !== null);
    expect(texts.length).toBeGreaterThan(30);
    const ways = texts.map(expectSameAsYaml);
    expect(ways.filter((w) => w === 'quick').length).toBeGreaterThan(texts.length * 0.8);
  });

  it('reads a generated corpus as yaml does', () => {
    const corpus = corpusFiles(300) as Record<string, string>;
    const ways = Object.entries(corpus)
      .map(([name, text]) => yamlOf(name, text))
      .filter((t): t is string => t !== null)
      .map(expectSameAsYaml);
    expect(ways.every((w) => w === 'quick')).toBe(true);
  });

  it.each([
    // Numbers in the YAML 1.2 core schema, and YAML 1.1 forms that must stay as yaml reads them.
    'a: 014',
    'a: 0o14',
    'a: 0x1F',
    'a: 0b101',
    'a: 0777',
    'a: 1:20',
    'a: 1_000',
    'a: 1,000',
    'a: +12',
    'a: -0',
    'a: 12345678901234567890',
    'a: 1e3',
    'a: 1.5e-3',
    'a: .5',
    'a: 5.',
    'a: 0.1',
    'a: .inf',
    'a: -.Inf',
    'a: .NaN',
    'a: [1, two, 3.0]',
    // Booleans and null: 1.2 knows only true/false and null/~/empty.
    'a: yes',
    'a: No',
    'a: on',
    'a: TRUE',
    'a: tRUE',
    'a: ~',
    'a:',
    'a: null',
    'a: NULL',
    'a: nULL',
    // Dates are strings in the core schema (D2 validates them itself).
    'a: 2024-01-01',
    'a: 2024-01-01T10:00:00Z',
    'a: 2001-12-14t21:59:43.10-05:00',
    // Quoting, block scalars, folding, comments, flow collections.
    'a: "2024"',
    "a: '1'",
    "a: 'it''s'",
    'a: "\\u00e9\\t"',
    'a: "\\x41"',
    "a: '\\x41'",
    'a: |\n  x\n  y\n',
    'a: >\n  x\n  y\n',
    'a: >-\n  x\n\n  y\n',
    'a: |+\n  x\n\n',
    'a: x # comment',
    'a: "x # not comment"',
    'a: x\n  continued\n  lines',
    'a:\n  - x\n  -\n  - z',
    'a: {b: [c, {d: e}]}',
    'a: [ ]',
    'a: { }',
    '"a": 1',
    '<<: {a: 1}',
    'a: <<',
    'a: "one\n  two"',
    "a: 'it''s\n  here'",
    'a: "x: \'y"',
    "a: 'say \"hi'",
    'a: "esc \\" quote"',
    "a: x, 'y",
    "a: it's",
    'a: "x" # it\'s',
    'a: 1\n...\n',
    'a: x\n\n\n',
    'a:   spaced   ',
    'a: $1',
    'a: =',
    'a: -',
    '- list\n- top',
    'just a string',
    '',
    '\n',
    '? complex\n: key',
  ])('reads %j as yaml does, or leaves it to yaml', (text) => {
    expectSameAsYaml(text);
  });

  it.each([
    ['an anchor and an alias', 'a: &x 1\nb: *x'],
    ['a YAML bomb', 'a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]'],
    ['a tag', 'a: !!str 1'],
    ['a directive', '%YAML 1.2\n---\na: 1'],
    ['a duplicate key', 'a: b\nb: c\na: d'],
    ['an unterminated string', 'a: "unterminated'],
    ['an unclosed flow sequence', 'a: [1,2'],
    ['a mapping inside a plain value', 'a: b: c'],
    // js-yaml reads these, yaml rejects them: a quoted value whose next line is not indented (content fuzz).
    ['an unclosed double quote above another key', 'title: "unclosed\ntitle: "Report 1: what the logs said"\ndate: 2025-02-11'],
    ['an unclosed single quote above another key', "a: 'x\nb: 'c: d"],
    ['an unclosed quote in a flow sequence', 'a: [x, "y\nb: "]'],
  ])('leaves %s to yaml, which reports its position', (_what, text) => {
    expect(quickYaml(text).ok).toBe(false);
  });
});
