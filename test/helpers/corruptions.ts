// Random corruptions of the fuzz site (fuzz-site.ts) for fast-check: bad
// YAML, wrong types, missing, misspelt and unknown fields, duplicate slugs,
// broken links and aliases, binary, non-UTF-8, empty, unclosed and deeply
// nested files, and the changes a build must still accept (an alias, a
// theme, an image, an unknown field, a BOM and CRLF).
import fc from 'fast-check';
import { BAD_YAML, kindOf, REQUIRED, WRONG } from './corruption-values.js';
import { text, type Tree } from './fuzz-site.js';

export interface Corruption {
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

export function corruptionArb(paths: readonly string[]): fc.Arbitrary<Corruption> {
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

/** Line-ending changes last: the other corruptions' patterns expect LF. */
export function applyOrder(corruptions: Corruption[]): Corruption[] {
  return [...corruptions.filter((c) => !c.last), ...corruptions.filter((c) => c.last)];
}

/**
 * The corruptions still in `base` once all are applied to it: those no later one
 * undid by writing the same key of the same file, and bytes that are not
 * UTF-8 that the file still holds (as such, or as the U+FFFD a later change
 * read them as).
 */
export function standing(corruptions: Corruption[], base: Tree): Corruption[] {
  const order = applyOrder(corruptions);
  const tree: Tree = { ...base };
  for (const c of order) c.apply(tree);
  return order.filter((c, i) =>
    c.bytes
      ? text(tree[c.file] ?? '').includes('\uFFFD')
      : c.sets === undefined || !order.slice(i + 1).some((d) => d.file === c.file && d.sets === c.sets),
  );
}
