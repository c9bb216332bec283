// The tokenizer both sides use (D12): Orama's English tokenizer and stemmer,
// given text whose hyphens and possessives are already split, so that
// `build-pipelines` and "build pipelines" meet. Imported from Orama's
// components entry alone: the run time needs no other part of Orama.
import type { Tokenizer } from '@orama/orama';
import { tokenizer } from '@orama/orama/components';
import { stemmer } from '@orama/stemmers/english';

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

/** "Gmail's ssh-agent" → "gmail ssh agent": what Orama's tokenizer is given, at build and at query time. */
export function splitWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/[-_'’]+/g, ' ');
}

/**
 * A word's index token ("" for a stop word), as the index made it: what both
 * search engines look words up by. Remembered per engine, and forgotten when
 * many, since queries can bring any word.
 */
export function wordTokens(): (word: string) => string {
  const tokenizer = createFolioTokenizer();
  const tokens = new Map<string, string>();
  return (word) => {
    let token = tokens.get(word);
    if (token === undefined) {
      if (tokens.size > 50_000) tokens.clear();
      token = tokenizer.tokenize(word, 'english', 'body')[0] ?? '';
      tokens.set(word, token);
    }
    return token;
  };
}

/** Orama's tokenizer with folio's stop words and word splitting; a fresh one per database or engine. */
export function createFolioTokenizer(): Tokenizer {
  const base = tokenizer.createTokenizer({ language: 'english', stemming: true, stemmer, stopWords: STOP_WORDS, allowDuplicates: true });
  const tokenize = base.tokenize.bind(base);
  base.tokenize = (raw, language, prop, withCache) => tokenize(typeof raw === 'string' ? splitWords(raw) : raw, language, prop, withCache);
  return base;
}
