// Text that the twins, llms.txt and the agent instructions show literally
// (titles, summaries, tags, notes: D21, D27) must read back as that text in
// every place folio puts it. Checked with the CommonMark + GFM parser folio
// renders with: whatever the author typed, a reader gets the same characters
// back (runs of spaces, tabs and line breaks become one space).
import fc from 'fast-check';
import type { Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { mdLink, mdText } from '../build/core/markdown-text.js';

const parser = unified().use(remarkParse).use(remarkGfm);

/** The text as the reader should see it: ASCII whitespace runs collapsed, ends trimmed. */
const intended = (text: string) => text.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '');

/** Each way folio places escaped text, and how to find that text again in the tree. */
const places: [name: string, markdown: (t: string) => string, read: (tree: Root) => string][] = [
  ['a paragraph of its own', (t) => mdText(t), (tree) => toString(tree)],
  ['a heading', (t) => `# ${mdText(t)}`, (tree) => only(tree, 'heading')],
  ['a block quote', (t) => `> ${mdText(t)}`, (tree) => only(tree, 'blockquote')],
  ['a fact in a list', (t) => `- Summary: ${mdText(t)}`, (tree) => only(tree, 'list').replace(/^Summary:( |$)/, '')],
  ['after bold text', (t) => `**Deprecation notice:** ${mdText(t)}`, (tree) => toString(tree).replace(/^Deprecation notice:( |$)/, '')],
  ['link text', (t) => mdLink(t, 'https://example.test/a b'), (tree) => linkText(tree)],
];

function only(tree: Root, type: RootContent['type']): string {
  // An empty text leaves an empty block, or none: either reads as ''.
  if (tree.children.length === 0) return '';
  expect(tree.children.map((c) => c.type)).toEqual([type]);
  return toString(tree.children[0]!);
}

function linkText(tree: Root): string {
  const paragraph = tree.children[0];
  expect(paragraph?.type).toBe('paragraph');
  const children = paragraph?.type === 'paragraph' ? paragraph.children : [];
  expect(children.map((c) => c.type)).toEqual(['link']);
  return toString(children[0]!);
}

function expectLiteral(text: string): void {
  for (const [name, markdown, read] of places) {
    const source = markdown(text);
    const got = read(parser.parse(source) as Root);
    expect({ place: name, source, text: got }).toEqual({ place: name, source, text: intended(text) });
  }
}

// Every character Markdown and GFM give a meaning to, at any position, and
// the constructs made of them.
const piece = fc.oneof(
  fc.constantFrom(...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split('')),
  fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', 'a', 'Z', '7', 'é', '語', '_'),
  fc.constantFrom('1.', '2)', '- ', '+ ', '* ', '> ', '# ', '## ', '```', '~~~', '---', '***', '___', '===', '    code'),
  fc.constantFrom(
    '&amp;',
    '&copy;',
    '&#123;',
    '&#x1F600;',
    '&nbsp;',
    '<b>',
    '<!-- c -->',
    '<https://a.test>',
    '[x](y)',
    '![i](j)',
    '[^1]',
    '[ref]: /u',
  ),
  fc.constantFrom(
    'https://example.test/a_b_(c)',
    'www.example.test',
    'me@example.test',
    'authorized_keys',
    'snake_case_',
    '~~gone~~',
    '~one~',
    'HTTPS://X.TEST/Y',
    'mailto:a@b.test',
    'xmpp:a@b.test/c',
    'http://',
    'a@b',
    '@',
    'WWW.',
    '(',
    ')',
    '.',
    'https://x.test/~me/',
    '*em*',
    '_em_',
    '`code`',
    '\\',
    '\\*',
    'a|b',
  ),
);
const texts = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

describe('mdText: escaped text reads back literally', () => {
  it.each([
    'Email deliverability audit',
    'authorized_keys and known_hosts',
    '#1 tip: C# and F#',
    'Issue #',
    '1. Not a list',
    '2) Nor this',
    '- nor this',
    '+ nor this',
    '> nor a quote',
    '***',
    '- - -',
    '~~not struck~~ and ~this~',
    'AT&T &amp; friends &#169;',
    'a <b>bold</b> claim',
    'see https://example.test/a_b_ and www.example.test/x_y_ or me_too@example.test',
    'trailing backslash \\',
    '   padded\n\n  over lines\t',
    '',
  ])('%j', (text) => expectLiteral(text));

  it('for generated texts made of Markdown syntax', () => {
    fc.assert(
      fc.property(texts, (text) => expectLiteral(text)),
      { numRuns: Number(process.env.FOLIO_FUZZ_RUNS) || 1500, seed: Number(process.env.FOLIO_FUZZ_SEED) || undefined },
    );
  }, 120_000);

  it('leaves plain words, and underscores inside words, unescaped', () => {
    expect(mdText('Email deliverability audit')).toBe('Email deliverability audit');
    expect(mdText('authorized_keys')).toBe('authorized_keys');
  });
});
