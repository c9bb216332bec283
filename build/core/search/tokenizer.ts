// English, the tokenizer folio has always had (D12): Orama's English
// tokenizer and stemmer, given text whose hyphens and possessives are already
// split, so that `build-pipelines` and "build pipelines" meet, and whose
// accents Orama's English splitter keeps (àèéìòóù) are already dropped:
// Orama would drop them itself, but after stemming, where "résumé" gives
// "resume" and "resume" gives "resum". A word of English's alphabet is then
// tokenized as Orama tokenizes it; a word with any other letter
// ("Prüfliste", "議事録") is kept whole, folded (./fold.ts), and stemmed as
// English when folding leaves it in a-z, instead of being cut at that letter.
// Imported from Orama's components entry alone: the run time needs no other
// part of Orama.
import type { Tokenizer } from '@orama/orama';
import { tokenizer } from '@orama/orama/components';
import { stemmer } from '@orama/stemmers/english';
import { unicode } from '../unicode.js';
import { foldWord } from './fold.js';
import type { SearchLanguage } from './language.js';
import { MIN_TYPO_LENGTH } from './typo.js';
import { eachWord } from './words.js';

/** Words too common to tell documents apart; dropped from the index and from queries. */
export const STOP_WORDS = [
  'a',
  'about',
  'after',
  'all',
  'also',
  'an',
  'and',
  'any',
  'are',
  'as',
  'at',
  'be',
  'been',
  'before',
  'being',
  'both',
  'but',
  'by',
  'can',
  'could',
  'did',
  'do',
  'does',
  'doing',
  'each',
  'for',
  'from',
  'had',
  'has',
  'have',
  'having',
  'he',
  'her',
  'here',
  'him',
  'his',
  'how',
  'i',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'itself',
  'just',
  'me',
  'more',
  'most',
  'my',
  'no',
  'nor',
  'not',
  'of',
  'on',
  'once',
  'only',
  'or',
  'other',
  'our',
  'ours',
  'out',
  'over',
  's',
  'same',
  'she',
  'should',
  'so',
  'some',
  'such',
  't',
  'than',
  'that',
  'the',
  'their',
  'them',
  'then',
  'there',
  'these',
  'they',
  'this',
  'those',
  'through',
  'to',
  'too',
  'under',
  'until',
  'up',
  'very',
  'was',
  'we',
  'were',
  'what',
  'when',
  'where',
  'which',
  'while',
  'who',
  'whom',
  'why',
  'will',
  'with',
  'would',
  'you',
  'your',
];

/** Orama's English word splitter, plus hyphens, underscores and apostrophes. */
export const WORD_SPLIT = /[^a-z0-9àèéìòóù]+/;

/** The accents Orama's English splitter keeps, and the letter each is folded to (as ./fold.ts folds them). */
const ENGLISH_ACCENTS = /[àèéìòóù]/g;
const UNACCENTED: Readonly<Record<string, string>> = { à: 'a', è: 'e', é: 'e', ì: 'i', ò: 'o', ó: 'o', ù: 'u' };

/** "Gmail's ssh-agent" → "gmail ssh agent", "Résumé" → "resume": what Orama's tokenizer is given, at build and at query time. */
export function splitWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/[-_'’]+/g, ' ')
    .replace(ENGLISH_ACCENTS, (accented) => UNACCENTED[accented]!);
}

/** `fn` remembered per argument, forgotten when many: queries can bring any word. */
export function cached(fn: (word: string) => string): (word: string) => string {
  const seen = new Map<string, string>();
  return (word) => {
    let value = seen.get(word);
    if (value === undefined) {
      if (seen.size > 50_000) seen.clear();
      value = fn(word);
      seen.set(word, value);
    }
    return value;
  };
}

/** A word of English's alphabet. */
const ALPHABET_WORD = /^[a-z0-9àèéìòóù]*$/;
/** A character outside English's alphabet (whole code points), and a letter, mark or digit. */
const OUTSIDE = /[^\x00-\x7fàèéìòóù]/gu;
const LETTER = unicode('[\\p{L}\\p{M}\\p{N}]');

/**
 * Whether lowercased, split text has no letter outside English's alphabet.
 * Other characters (an em dash, curly quotes) separate words on both paths,
 * so such text takes Orama's own: most English prose has them. Only the
 * few characters outside ASCII meet the Unicode class.
 */
function inAlphabet(split: string): boolean {
  OUTSIDE.lastIndex = 0;
  for (let m = OUTSIDE.exec(split); m !== null; m = OUTSIDE.exec(split)) if (LETTER().test(m[0])) return false;
  return true;
}

const PLAIN_WORD = /^[a-z0-9]+$/;

/** What English indexes record as their language (Orama's name for it). */
export const ENGLISH_NAME = 'english';

/** Orama's tokenizer with folio's stop words and word splitting; a fresh one per database or engine. */
export function createFolioTokenizer(): Tokenizer {
  const base = tokenizer.createTokenizer({ language: 'english', stemming: true, stemmer, stopWords: STOP_WORDS, allowDuplicates: true });
  const tokenize = base.tokenize.bind(base);
  let token: ((word: string) => string) | undefined;
  base.tokenize = (raw, language, prop, withCache) => {
    if (typeof raw !== 'string') return tokenize(raw, language, prop, withCache);
    const split = splitWords(raw);
    if (inAlphabet(split)) return tokenize(split, language, prop, withCache);
    token ??= englishToken(base);
    return wordsBeyondAlphabet(split).map(token).filter(Boolean);
  };
  return base;
}

/** A word's token as `base` (createFolioTokenizer) makes it, "" for a stop word. */
function englishToken(base: Tokenizer): (word: string) => string {
  const tokenize = (word: string) => base.tokenize(word, 'english', 'body')[0] ?? '';
  return cached((word) => {
    if (ALPHABET_WORD.test(word)) return tokenize(word);
    const folded = foldWord(word);
    return PLAIN_WORD.test(folded) ? tokenize(folded) : folded;
  });
}

/** The words of English text: those of its alphabet as they are, any other folded. */
function englishWords(text: string): string[] {
  const split = splitWords(text);
  return inAlphabet(split) ? split.split(WORD_SPLIT) : wordsBeyondAlphabet(split);
}

/** The words of split text with letters outside English's alphabet, by Unicode's classes: those of the alphabet as they are, any other folded. */
function wordsBeyondAlphabet(split: string): string[] {
  const words: string[] = [];
  eachWord(
    split,
    (run) => run,
    (word) => words.push(ALPHABET_WORD.test(word) ? word : foldWord(word)),
  );
  return words;
}

export const ENGLISH: SearchLanguage = {
  name: ENGLISH_NAME,
  stopWords: [],
  folds: false,
  keepsPrefixes: true,
  words: englishWords,
  eachWord: (text, visit) => eachWord(text, (run) => run.toLowerCase(), visit),
  tokens: () => englishToken(createFolioTokenizer()),
  // Its vocabulary is of a-z alone, already folded.
  fold: (word) => word,
  inVocabulary: (word) => word.length >= MIN_TYPO_LENGTH && /^[a-z]+$/.test(word),
  tokenizer: createFolioTokenizer,
};
