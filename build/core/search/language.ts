// The language of the search index (D12): how text becomes words and words
// become tokens, one object that the build (through Orama's tokenizer
// component) and both search engines use, chosen by the language the index
// records. English is folio's own tokenizer (./tokenizer.ts), loaded with
// this module. Every other language splits words of any script (./words.ts),
// folds diacritics (./fold.ts) and drops the stop words the index records.
import type { Tokenizer } from '@orama/orama';
import { foldWord } from './fold.js';
import { cached, ENGLISH, ENGLISH_NAME } from './tokenizer.js';
import { MIN_TYPO_LENGTH } from './typo.js';
import { unicode } from '../unicode.js';
import { eachWord, type WordVisitor } from './words.js';

export interface SearchLanguage {
  /** What the index records: "english" (Orama's name, which English indexes have always carried), else the language's primary subtag ("de"). */
  readonly name: string;
  /** The stop words the index records (English's are folio's own, ./tokenizer.ts, and not recorded). */
  readonly stopWords: readonly string[];
  /** Whether a query word also finds the corpus words that are the same without diacritics (English splits words already folded). */
  readonly folds: boolean;
  /** Whether a word's token starts as the word does, so that a snippet can look for a match by its first letters (./snippet.ts). */
  readonly keepsPrefixes: boolean;
  /** The lowercased words of a text, in order (with "" where English splits twice): what queries and the vocabulary are made of. */
  words(text: string): string[];
  /** Each word of a text with its place in it, for snippets. */
  eachWord(text: string, visit: WordVisitor): void;
  /** A word → token function with a cache of its own ("" for a stop word); each engine and database makes one. */
  tokens(): (word: string) => string;
  /** The form in which two words are compared for one typo (./typo.ts), and the vocabulary grouped. */
  fold(word: string): string;
  /** Whether a word goes into the vocabulary that typos are corrected against. */
  inVocabulary(word: string): boolean;
  /** Orama's tokenizer component, for the build's database. */
  tokenizer(): Tokenizer;
}

/** The name an index of a site in `tag` (BCP 47, site.yaml's `language`) records. */
export function searchLanguageName(tag: string): string {
  const primary = tag.split('-')[0]!.toLowerCase();
  return primary === 'en' || primary === ENGLISH_NAME ? ENGLISH_NAME : primary;
}

const LETTERS_ONLY = unicode('^[\\p{L}\\p{M}]+$');

/**
 * The language of an index that records `name` (or of a site in that BCP 47
 * tag) and `stopWords`: English, or words of any script, folded.
 */
export function searchLanguage(name: string, stopWords: readonly string[] = []): SearchLanguage {
  const key = searchLanguageName(name);
  return key === ENGLISH_NAME ? ENGLISH : unicodeLanguage(key, stopWords);
}

/** Turkish and Azerbaijani lowercase I to dotless ı (folded to i like the rest); every other language as JavaScript does. */
function lowercase(name: string): (text: string) => string {
  return name === 'tr' || name === 'az' ? (text) => text.toLocaleLowerCase(name) : (text) => text.toLowerCase();
}

/**
 * A language of words of any script: a token is the word folded, so a query
 * typed with or without accents finds it. Not stemmed: Orama's stemmers for
 * other languages are some 450 KB of code that every function would parse on
 * every cold start, MCP and the precomputed files included, since a host
 * bundles the functions into one script (measured: 6-7 ms of CPU each).
 */
function unicodeLanguage(name: string, stopWords: readonly string[]): SearchLanguage {
  const lower = lowercase(name);
  const fold = cached(foldWord);
  const stops = new Set(stopWords.map((w) => fold(lower(w))));
  const token = (word: string): string => {
    const folded = fold(word);
    return stops.has(folded) ? '' : folded;
  };
  const visit = (text: string, visitor: WordVisitor) => eachWord(text, lower, visitor);
  const words = (text: string) => {
    const out: string[] = [];
    visit(text, (word) => out.push(word));
    return out;
  };
  return {
    name,
    stopWords,
    folds: true,
    keepsPrefixes: false,
    words,
    eachWord: visit,
    tokens: () => cached(token),
    fold,
    inVocabulary: (word) => fold(word).length >= MIN_TYPO_LENGTH && LETTERS_ONLY().test(word),
    tokenizer: () => {
      const tokenOf = cached(token);
      return {
        language: name,
        normalizationCache: new Map(),
        tokenize: (raw: string) => (typeof raw === 'string' ? words(raw).map(tokenOf).filter(Boolean) : [raw]),
      };
    },
  };
}
