// Splits a Markdown file into front-matter and body with gray-matter. The
// YAML is read by a fast path (quickYaml) when it can be, and by `yaml`, which
// keeps every key's line and column, for anything else and for the positions
// of a problem, which are only asked for when a field is wrong.
import matter from 'gray-matter';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { Problem } from './problems.js';
import { quickYaml } from './quick-yaml.js';

export interface Source {
  /** Path as shown in messages, relative to the working directory. */
  file: string;
  readonly text: string;
  /** What names the file's bytes (load.ts stampOf), when it settled before the build began. */
  readonly stamp?: string;
}

export interface Parsed {
  source: Source;
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of the body's first line in the file. */
  bodyLine: number;
  /** Line and column of a front-matter key, dotted for nested maps (or of item `index` of its list), or of the opening `---` when absent. */
  position(key: string, index?: number): { line: number; column: number };
}

const OPEN = { line: 1, column: 1 };

/**
 * A NUL byte, or bytes that are not UTF-8: the file is not text (D2). Those
 * bytes are read as U+FFFD, as is the U+FFFD a failed conversion wrote in
 * their place, so the message names both.
 */
function encodingProblem(source: Source, text: string, kind: 'Markdown' | 'YAML'): Problem | null {
  if (text.includes('\u0000')) return { file: source.file, ...OPEN, message: `This file holds binary data (a NUL byte), not ${kind} text.`, hint: `Remove it from content/ or replace it with a UTF-8 ${kind} file.` };
  const bad = text.indexOf('\uFFFD');
  if (bad === -1) return null;
  const before = text.slice(0, bad).split('\n');
  return { file: source.file, line: before.length, column: before[before.length - 1]!.length + 1, message: 'This file is not valid UTF-8 text: it has bytes that UTF-8 does not allow, or the character � (U+FFFD) that a failed conversion leaves in their place.', hint: 'Save it as UTF-8 (most editors offer "Save with encoding"), and where � stands, write the character it replaced.' };
}

export function parseFrontMatter(source: Source, problems: Problem[]): Parsed | null {
  // CRLF (Windows editors) and lone CR count as one line break, as in every editor.
  const text = source.text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const unreadable = encodingProblem(source, text, 'Markdown') ?? otherFrontMatter(source, text) ?? frontMatterLanguage(source, text);
  if (unreadable) {
    problems.push(unreadable);
    return null;
  }
  let doc: Document | undefined;
  let yamlText: string | undefined;
  let lineOffset = 1;
  const lines = new LineCounter();
  let file: matter.GrayMatterFile<string>;
  try {
    file = matter(text, {
      engines: {
        // gray-matter evaluates ---js front-matter as JavaScript: content is data, and never runs (frontMatterLanguage
        // refuses any language but YAML before this; these refuse again should the two ever disagree).
        javascript: refuseCode,
        coffee: refuseCode,
        yaml: (raw: string) => {
          // gray-matter hands over the text after the opening `---`, usually from its newline.
          lineOffset = raw.startsWith('\n') ? 0 : 1;
          yamlText = raw;
          const quick = quickYaml(raw);
          if (quick.ok) return quick.value ?? {};
          doc = parseDocument(raw, { lineCounter: lines, uniqueKeys: true });
          if (doc.errors.length) throw doc.errors[0];
          const value = doc.toJS();
          return value ?? {};
        },
      },
    });
  } catch (error) {
    const e = error as { message?: string; linePos?: [{ line: number; col: number }] };
    const at = e.linePos?.[0];
    // Alias errors come from toJS() without a position: find the alias in the front-matter.
    const alias = at ? null : aliasAt(text.slice(0, text.indexOf('\n---', 3) + 1), String(e.message));
    problems.push({
      file: source.file,
      line: at ? at.line + lineOffset : (alias?.line ?? 1),
      column: at ? at.col : (alias?.column ?? 1),
      message: `The front-matter is not valid YAML: ${yamlMessage(String(e.message ?? error))}`,
      hint: yamlHint(e as { code?: string; message?: string }, true),
    });
    return null;
  }
  if (typeof file.data !== 'object' || file.data === null || Array.isArray(file.data)) {
    problems.push({ file: source.file, ...OPEN, message: 'The front-matter must be a map of fields.', hint: 'Write one `field: value` per line between the two `---` lines.' });
    return null;
  }
  const bodyLine = text.slice(0, text.length - file.content.length).split('\n').length;
  // The fast path keeps no positions: parse again with them only when a problem needs one.
  const document = () => (doc ??= yamlText === undefined ? undefined : parseDocument(yamlText, { lineCounter: lines, uniqueKeys: true }));
  return { source, data: file.data as Record<string, unknown>, body: file.content, bodyLine, position: locate(document, lines, lineOffset) };
}

/**
 * Hugo's TOML (+++) and JSON ({…}) front-matter, which gray-matter reads as
 * a body with no front-matter: said as what it is, with the conversion,
 * rather than as every field missing.
 */
function otherFrontMatter(source: Source, text: string): Problem | null {
  if (/^\+\+\+[ \t]*\n/.test(text))
    return {
      file: source.file,
      ...OPEN,
      message: 'The front-matter is TOML (between +++ lines), and folio reads YAML front-matter between --- lines.',
      hint: 'Convert it to YAML: replace both +++ lines with ---, and write each key = value as key: value (title = "Notes" becomes title: "Notes"). In the Hugo site, hugo convert toYAML -o <folder> converts every file.',
    };
  if (/^\{[ \t]*(\n|")/.test(text))
    return {
      file: source.file,
      ...OPEN,
      message: 'The front-matter is JSON ({ … }), and folio reads front-matter between --- lines.',
      hint: 'Add a line --- before the opening { and another after the closing }: JSON is YAML, so folio reads it as it is.',
    };
  return null;
}

function refuseCode(): never {
  throw new Error('front-matter in a programming language is never run: write it as YAML between two --- lines');
}

/**
 * A language named after the opening `---` (`---js`, `---json`): gray-matter
 * would parse the front-matter in it, and run it for `js` and `coffee`. A
 * content folder is data, often edited by others (a pull request a CI job
 * builds), so folio reads YAML only and says so.
 */
function frontMatterLanguage(source: Source, text: string): Problem | null {
  // `----` opens no front-matter (gray-matter's rule): a thematic break, say.
  if (!text.startsWith('---') || text[3] === '-') return null;
  const { name } = matter.language(text);
  if (name === '' || /^(yaml|yml)$/i.test(name)) return null;
  return {
    file: source.file,
    ...OPEN,
    message: `The front-matter is marked as \`${name.length > 20 ? `${name.slice(0, 19)}…` : name}\` (after the opening ---), and folio reads YAML front-matter only; it never runs code from content.`,
    hint: 'Write the opening line as --- alone and the fields as YAML (title: "Notes"). JSON is YAML, so a JSON object between the two --- lines reads as it is.',
  };
}

/** A whole YAML file (site.yaml), with the same positions as front-matter. */
export function parseYamlFile(source: Source, problems: Problem[]): Parsed | null {
  const encoding = encodingProblem(source, source.text.replace(/^\uFEFF/, ''), 'YAML');
  if (encoding) {
    problems.push(encoding);
    return null;
  }
  const lines = new LineCounter();
  const doc = parseDocument(source.text, { lineCounter: lines, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    problems.push({ file: source.file, line: at?.line ?? 1, column: at?.col ?? 1, message: `This is not valid YAML: ${yamlMessage(error.message)}`, hint: yamlHint(error, false) });
    return null;
  }
  let data: unknown;
  try {
    data = doc.toJS() ?? {};
  } catch (error) {
    // An alias without its anchor, or too many aliases (a YAML bomb): toJS() throws.
    const message = String((error as Error).message);
    problems.push({ file: source.file, ...(aliasAt(source.text, message) ?? OPEN), message: `This is not valid YAML: ${yamlMessage(message)}`, hint: 'An alias (*name) must come after its anchor (&name), and may not repeat a node more than 100 times.' });
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.push({ file: source.file, ...OPEN, message: 'This file must be a map of fields.', hint: 'Write one `field: value` per line.' });
    return null;
  }
  return { source, data: data as Record<string, unknown>, body: '', bodyLine: 1, position: locate(() => doc, lines, 0) };
}

function locate(doc: () => Document | undefined, lines: LineCounter, lineOffset: number): Parsed['position'] {
  return (key, index) => {
    // A dotted key ("availability.from") walks nested maps; it stops at the deepest key found.
    let node: unknown = doc()?.contents;
    let found: [number, number, number] | undefined;
    const parts = key.split('.');
    let depth = 0;
    for (const part of parts) {
      if (!isMap(node)) break;
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === part);
      if (!pair || !isScalar(pair.key) || !pair.key.range) break;
      found = pair.key.range;
      node = pair.value;
      depth++;
    }
    if (!found) return OPEN;
    const item = index !== undefined && depth === parts.length && isSeq(node) ? (node.items[index] as { range?: [number, number, number] } | undefined) : undefined;
    const at = lines.linePos((item?.range ?? found)[0]);
    return { line: at.line + lineOffset, column: at.col };
  };
}

/** The parser's first line, without the position it repeats (we give it as path:line:column). */
/** Line and column of the alias a YAML alias error names ("…: name"), else of the first alias. */
function aliasAt(text: string, message: string): { line: number; column: number } | null {
  const name = /: ([^\s:]+)$/.exec(message)?.[1];
  const escaped = name?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = (escaped && new RegExp(`\\*${escaped}(?![^\\s,\\]}])`).exec(text)) || /(?<=^|[\s[{,:])\*[^\s,\]}]+/m.exec(text);
  if (!match) return null;
  const before = text.slice(0, match.index).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** The fix for a YAML error, by what the parser says went wrong; most are an unquoted colon. */
function yamlHint(error: { code?: string; message?: string }, inFrontMatter: boolean): string {
  const message = String(error.message ?? '');
  if (error.code === 'DUPLICATE_KEY') return 'Each field may appear once: remove or merge the repeated one.';
  if (error.code === 'TAB_AS_INDENT') return 'Indent with spaces, not tabs.';
  if (/^Flow sequence/.test(message)) return 'Close the list with ] on the same line, e.g. tags: [postgres, migrations], or write one "- item" per line.';
  if (/^Flow map/.test(message)) return 'Close the map with } on the same line, or write one "key: value" per line, indented.';
  if (/closing "?quote/i.test(message)) return 'Close the quoted text with the same quote it opens with, on the same line.';
  return inFrontMatter
    ? 'Check indentation and quote values that contain a colon, e.g. title: "Postgres: the long way round".'
    : 'Check indentation and quote values that contain a colon.';
}

function yamlMessage(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '').replace(/\.?$/, '.');
}
