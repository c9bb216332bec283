// The snippet of a hit: the stretch of its text where the query's words are
// densest, cut at word boundaries, so a reader sees why it matched (D12).
import type { SearchLanguage } from './language.js';
import { unicode } from '../unicode.js';
import { MARK } from './words.js';

/** Characters of text a snippet shows, about two lines. */
export const SNIPPET_LENGTH = 180;
/** How much text to keep before the first matching word. */
const LEAD = 50;

/** a–z, 0–9 and the Latin-1 letters: the characters a word is made of (hyphens and apostrophes split words, as in the index). */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 0xdf && c <= 0xff && c !== 0xf7);
}

interface Match {
  at: number;
  token: string;
}

/**
 * What may be a letter beyond a-z (in lowercased text): words with one are
 * folded, and a token need not start as its word does ("sécurité" is
 * "securit"). Ranges rather than Unicode properties, which cost a
 * millisecond to compile: a symbol taken for a letter only costs a pass over
 * the words.
 */
const BEYOND_ENGLISH = /(?!÷)[\u00df-\u1fff\u2c00-\ud7ff\ud800-\udfff\uf900-\uffef]/;

/**
 * `normalize` maps a word to its index token ("" for a stop word), the same
 * way the index did. Where the language's tokens keep the start of their
 * words (English stemming does), only words that share their first three
 * letters with a query token are normalized; otherwise every word of the
 * language's splitting is.
 */
export function snippet(
  texts: readonly string[],
  tokens: ReadonlySet<string>,
  normalize: (word: string) => string,
  language: Pick<SearchLanguage, 'keepsPrefixes' | 'eachWord'>,
  length = SNIPPET_LENGTH,
): string {
  const prefixes = new Set([...tokens].map((t) => t.slice(0, 3)));
  // The body usually holds the match; when only the title, tags or summary do, the summary may show it.
  for (const text of texts) {
    let matches = language.keepsPrefixes ? prefixMatches(text, tokens, prefixes, normalize) : [];
    if (matches.length === 0 && (!language.keepsPrefixes || (BEYOND_ASCII.test(text) && BEYOND_ENGLISH.test(text.toLowerCase()))))
      matches = wordMatches(text, tokens, normalize, language);
    if (matches.length > 0) return excerpt(text, matches, length);
  }
  const first = texts.find(Boolean) ?? '';
  return cut(first, 0, length);
}

/** Every word of `text` (the language's words) whose token is a query token. */
function wordMatches(
  text: string,
  tokens: ReadonlySet<string>,
  normalize: (word: string) => string,
  language: Pick<SearchLanguage, 'eachWord'>,
): Match[] {
  const matches: Match[] = [];
  language.eachWord(text, (word, at) => {
    const token = normalize(word);
    if (tokens.has(token)) matches.push({ at, token });
  });
  return matches;
}

/** The words of `text` starting with one of `prefixes` whose token is a query token, in order. */
function prefixMatches(
  text: string,
  tokens: ReadonlySet<string>,
  prefixes: ReadonlySet<string>,
  normalize: (word: string) => string,
): Match[] {
  // Find the prefixes rather than tokenize every word: far fewer words get stemmed.
  const lower = text.toLowerCase();
  const matches: Match[] = [];
  for (const prefix of prefixes) {
    for (let at = lower.indexOf(prefix); at !== -1; at = lower.indexOf(prefix, at + 1)) {
      if (at > 0 && isWordChar(lower.charCodeAt(at - 1))) continue;
      let end = at + prefix.length;
      while (end < lower.length && isWordChar(lower.charCodeAt(end))) end++;
      const token = normalize(lower.slice(at, end));
      if (tokens.has(token)) matches.push({ at, token });
    }
  }
  return matches.sort((a, b) => a.at - b.at);
}

/** The excerpt of `text` around its densest `matches` (in order, at least one). */
function excerpt(text: string, matches: readonly Match[], length: number): string {
  // The window that starts at a match and holds the most distinct query tokens; the earliest wins a tie.
  let best = matches[0]!;
  let bestCount = 0;
  for (let i = 0; i < matches.length; i++) {
    const seen = new Set<string>();
    for (let j = i; j < matches.length && matches[j]!.at < matches[i]!.at + length - LEAD; j++) seen.add(matches[j]!.token);
    if (seen.size > bestCount) {
      best = matches[i]!;
      bestCount = seen.size;
    }
  }
  return cut(text, Math.max(0, best.at - LEAD), length);
}

const BEYOND_ASCII = /[^\x00-\x7f]/;

/** Characters of scripts written without spaces, where a snippet may start or end between any two characters. */
const UNSPACED = unicode('[\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Myanmar}]');

/** `at`, or before it where `at` would part a surrogate pair or a letter from its marks. */
function boundary(text: string, at: number): number {
  for (let c = text.charCodeAt(at); at > 0 && ((c >= 0xdc00 && c <= 0xdfff) || (c >= 0x300 && MARK().test(text[at]!)));)
    c = text.charCodeAt(--at);
  return at;
}

/** Where a sentence begins at most 20 characters before `start` (or shortly after it), or -1: after ". " or a full stop of Chinese or Japanese. */
function sentenceStart(text: string, start: number): number {
  const stop = text.lastIndexOf('. ', start + 20);
  let at = stop >= start - 20 && stop !== -1 ? stop + 2 : -1;
  for (const mark of ['。', '！', '？']) {
    const ideographic = text.lastIndexOf(mark, start + 20);
    if (ideographic !== -1 && ideographic >= start - 20 && ideographic + 1 > at) at = ideographic + 1;
  }
  return at;
}

/** `length` characters of `text` from about `start`, on word boundaries, with an ellipsis where text was left out. */
function cut(text: string, start: number, length: number): string {
  if (start > 0) {
    // Start at a sentence when one begins shortly before, else after the previous space (in text without spaces, right there).
    const sentence = sentenceStart(text, start);
    const space = text.lastIndexOf(' ', start);
    if (sentence !== -1) start = sentence;
    else if (BEYOND_ASCII.test(text.slice(space + 1, start + 1)) && UNSPACED().test(text.slice(space + 1, start + 1)))
      start = boundary(text, start);
    else start = Math.max(0, space + 1);
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    end = space > start + length / 2 ? space : boundary(text, end);
  }
  const body = text
    .slice(start, end)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s,;:]+$/, '');
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
