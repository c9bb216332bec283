// Text that Markdown must show literally: titles, summaries, tags and notes in
// the twins (D21), llms.txt and the agent instructions (D27). A CommonMark +
// GFM reader gets back exactly the author's text, on one line, wherever folio
// puts it (a paragraph, a heading, a quote, a list item, link text); the
// escapes are only the ones needed, so the raw Markdown stays readable.
import { unicode } from './unicode.js';

/** Web and mail addresses, which GFM would link: kept whole, as autolinks. */
const ADDRESS = /https?:\/\/[^\s<>\u0000-\u001f\u007f]+|[\w.+-]+@[a-z\d](?:[a-z\d-]*[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]*[a-z\d])?)+/gi;
/** Trailing characters a reader takes as the sentence's, not the address's (GFM drops them too). */
const TRAILING = /[?!.,:;*_~'"]+$/;

/**
 * Anything the steps below would change: most titles and summaries have none
 * of it, and the build escapes a few per post: one test, not ten.
 */
const NEEDS_ESCAPING = /[\\`*[\]<>~&#_@\t\n\v\f\r]|www\.|:\/\/| {2}|^[ +\-\d]| $/i;

/**
 * Free text (a note, a headline) as a sentence of its own, ended with a full
 * stop unless it ends with one already (or ! ? …, before closing quotes or
 * brackets), so that the text after it does not run on from its last word.
 */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]["'”’)\]]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Escapes text so Markdown shows it literally. */
export function mdText(text: string): string {
  return literal(text, false);
}

/** A link whose text reads literally; the target in angle brackets when it needs them. */
export function mdLink(text: string, url: string): string {
  const target = /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
  return `[${literal(text, true)}](${target})`;
}

/** An image whose alt text reads literally. */
export function mdImage(alt: string, url: string): string {
  return `!${mdLink(alt, url)}`;
}

function literal(text: string, inLink: boolean): string {
  return NEEDS_ESCAPING.test(text) ? escapeLine(oneLine(text), inLink) : text;
}

function oneLine(text: string): string {
  // Single spaces, the most of any text, are left as they are rather than replaced by themselves.
  const line = text.replace(/[\t\n\v\f\r ]{2,}|[\t\n\v\f\r]/g, ' ');
  return line.startsWith(' ') || line.endsWith(' ') ? line.replace(/^ | $/g, '') : line;
}

function escapeLine(line: string, inLink: boolean): string {
  // Inside link text GFM makes no links, so addresses need no care there.
  if (inLink || !/@|:\/\//.test(line)) return escapeStart(escapeInline(line));
  let out = '';
  let last = 0;
  for (const m of line.matchAll(ADDRESS)) {
    let address = m[0];
    // An address ends before closing punctuation, and before a `)` it did not open.
    address = address.replace(TRAILING, '');
    while (address.endsWith(')') && count(address, '(') < count(address, ')')) address = address.slice(0, -1).replace(TRAILING, '');
    if (!address.includes('@') && !/^https?:\/\/./i.test(address)) continue;
    out += escapeInline(line.slice(last, m.index)) + `<${address}>`;
    last = m.index + address.length;
  }
  return escapeStart(out + escapeInline(line.slice(last)));
}

function count(text: string, c: string): number {
  return text.split(c).length - 1;
}

/** Characters that start inline Markdown, HTML or GFM syntax anywhere in a line. */
function escapeInline(text: string): string {
  let out = text
    .replace(/[\\`*[\]<>~]/g, (c) => `\\${c}`)
    // Character references (&amp; &#169;) would be decoded.
    .replace(/&(?=#?[a-z\d]+;)/gi, '\\&');
  // A heading's closing #s, when the line is a heading.
  if (out.includes('#')) out = out.replace(/(^| )#/g, '$1\\#');
  // `www.` starts a GFM link; the escaped dot reads the same. (Unicode classes
  // are slow to scan for: only text that has the letters pays.)
  if (/www\./i.test(out)) out = out.replace(WWW(), '$1$2\\.');
  // An underscore inside a word never starts emphasis (CommonMark), so authorized_keys stays readable.
  if (out.includes('_'))
    out = out.replace(/_/g, (c, i: number, all: string) => (WORD().test(all[i - 1] ?? '') && WORD().test(all[i + 1] ?? '') ? c : `\\${c}`));
  return out;
}

const WORD = unicode('[\\p{L}\\p{N}]');
const WWW = unicode('(^|[^\\p{L}\\p{N}])(www)\\.', 'giu');

/** What would make the line a list item or a thematic break when it starts a block. */
function escapeStart(line: string): string {
  return line.replace(/^[+-]/, '\\$&').replace(/^(\d{1,9})([.)])/, '$1\\$2');
}
