// Words of any script (D12), for every language but English's own alphabet
// (./tokenizer.ts): a word is a run of letters, marks and digits, so
// hyphens, apostrophes ("l'équipe" → "l", "équipe") and punctuation
// separate words. Scripts written without spaces between words are cut
// further:
//
// - Chinese, Japanese and Korean into overlapping pairs of characters
//   ("議事録" → "議事", "事録"), each script's stretch on its own, so
//   Japanese particles do not pair with the word before them. Measured on
//   fifteen Japanese posts and thirty queries (bench/cjk-words.js), pairs
//   found what Intl.Segmenter's dictionary found (recall 1.0 for both;
//   precision 0.93 against 0.95, from pairs inside longer words such as 京都
//   in 東京都), but the segmenter costs some 10 ms of CPU on its first use
//   while ICU loads its dictionary (a cold function's whole budget on some
//   hosts) and cuts as the host's ICU version does, which need not be the
//   build's.
// - Thai, Lao, Khmer and Burmese, which pairs of characters would cut inside
//   syllables, by Intl.Segmenter's word boundaries.
import { unicode } from '../unicode.js';

/** A word, and where it is in the text given (UTF-16 offsets). */
export type WordVisitor = (word: string, start: number, end: number) => void;

const RUN = unicode('[\\p{L}\\p{M}\\p{N}]+', 'gu');

/** Characters of the scripts that are cut into pairs (the kana length mark and iteration marks count as their script's), and of those segmented. */
const PAIRED_SCRIPTS = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}';
const SEGMENTED_SCRIPTS = '\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Myanmar}';
const PAIRED = unicode(`[${PAIRED_SCRIPTS}]`);
const SEGMENTED = unicode(`[${SEGMENTED_SCRIPTS}]`);
const UNSPACED = unicode(`[${PAIRED_SCRIPTS}${SEGMENTED_SCRIPTS}]`);
const HANGUL = unicode('\\p{scx=Hangul}');
const KATAKANA = unicode('\\p{scx=Katakana}');
const HIRAGANA = unicode('\\p{scx=Hiragana}');
/** A combining mark, which belongs to the character before it. */
export const MARK = unicode('\\p{M}');

/** How a character of an unspaced run is cut, and which script it is (pairs never straddle two). */
function kindOf(c: string): string {
  if (!PAIRED().test(c)) return SEGMENTED().test(c) ? 'segment' : 'word';
  if (HANGUL().test(c)) return 'hangul';
  // The length mark "ー" is both kana's: it lengthens a katakana word far more often.
  if (KATAKANA().test(c)) return 'katakana';
  return HIRAGANA().test(c) ? 'hiragana' : 'han';
}

let segmenter: Intl.Segmenter | undefined;

/** Each word of `text`, lowercased by `lower`, with its place. Offsets are the text's own, whatever lowercasing does to lengths. */
export function eachWord(text: string, lower: (text: string) => string, visit: WordVisitor): void {
  for (const match of text.matchAll(RUN())) {
    const run = match[0];
    const at = match.index;
    if (!UNSPACED().test(run)) visit(lower(run), at, at + run.length);
    else unspaced(run, at, lower, visit);
  }
}

/** A run with characters of scripts written without spaces: each script's stretch cut its way, the rest one word each. */
function unspaced(run: string, at: number, lower: (text: string) => string, visit: WordVisitor): void {
  let start = 0;
  let kind = '';
  for (let i = 0; i <= run.length;) {
    const c = i < run.length ? String.fromCodePoint(run.codePointAt(i)!) : '';
    // A mark belongs to the character before it.
    const next = c === '' ? '' : MARK().test(c) && i > 0 ? kind : kindOf(c);
    if (i > 0 && next !== kind) {
      const part = run.slice(start, i);
      if (kind === 'segment') segments(part, at + start, lower, visit);
      else if (kind === 'word') visit(lower(part), at + start, at + i);
      else pairs(part, at + start, visit);
      start = i;
    }
    kind = next;
    i += c.length || 1;
  }
}

/** Overlapping pairs of characters (a lone character alone), each with its marks, as written: these scripts have no case. */
function pairs(part: string, at: number, visit: WordVisitor): void {
  const chars: string[] = [];
  for (const c of part) {
    if (chars.length > 0 && MARK().test(c)) chars[chars.length - 1] += c;
    else chars.push(c);
  }
  if (chars.length === 1) return visit(part, at, at + part.length);
  let offset = at;
  for (let i = 0; i + 1 < chars.length; i++) {
    const pair = chars[i]! + chars[i + 1]!;
    visit(pair, offset, offset + pair.length);
    offset += chars[i]!.length;
  }
}

/** The words Intl.Segmenter finds; where it is missing, the stretch is one word. */
function segments(part: string, at: number, lower: (text: string) => string, visit: WordVisitor): void {
  if (typeof Intl.Segmenter !== 'function') return visit(lower(part), at, at + part.length);
  segmenter ??= new Intl.Segmenter('th', { granularity: 'word' });
  for (const { segment, index, isWordLike } of segmenter.segment(part))
    if (isWordLike) visit(lower(segment), at + index, at + index + segment.length);
}
