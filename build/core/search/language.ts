// The language of the search index (D12): how text becomes words and words
// become tokens, one object that the build (through Orama's tokenizer
// component) and both search engines use, chosen by the language the index
// records. English is folio's own tokenizer (./tokenizer.ts), loaded with
// this module. Every other language splits words of any script (./words.ts),
// folds diacritics (./fold.ts), drops the stop words the index records and
// uses Orama's stemmer for it where Orama has one, imported only when an
// index of that language is opened: a function searching an English site
// never evaluates it.
import type { Tokenizer } from '@orama/orama';
import { foldWord } from './fold.js';
import { cached, ENGLISH, ENGLISH_NAME } from './tokenizer.js';
import { MIN_TYPO_LENGTH } from './typo.js';
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

type Stemmer = (word: string) => string;

/**
 * Orama's stemmers by primary language subtag, each a literal import() so
 * that a bundler keeps it unevaluated until an index of that language is
 * opened. Slovenian has none (Orama's own table points it at the Russian
 * one); Japanese and Chinese are cut into pairs of characters, which no
 * stemmer applies to. Stop words are not here: the build takes them from
 * @orama/stopwords and the index records them (build/emit/search-language.ts),
 * so no function carries every language's list.
 */
const STEMMERS: Record<string, () => Promise<{ stemmer: Stemmer }>> = {
  ar: () => import('@orama/stemmers/arabic'),
  bg: () => import('@orama/stemmers/bulgarian'),
  da: () => import('@orama/stemmers/danish'),
  de: () => import('@orama/stemmers/german'),
  el: () => import('@orama/stemmers/greek'),
  es: () => import('@orama/stemmers/spanish'),
  fi: () => import('@orama/stemmers/finnish'),
  fr: () => import('@orama/stemmers/french'),
  ga: () => import('@orama/stemmers/irish'),
  hi: () => import('@orama/stemmers/indian'),
  hu: () => import('@orama/stemmers/hungarian'),
  hy: () => import('@orama/stemmers/armenian'),
  id: () => import('@orama/stemmers/indonesian'),
  it: () => import('@orama/stemmers/italian'),
  lt: () => import('@orama/stemmers/lithuanian'),
  nb: () => import('@orama/stemmers/norwegian'),
  ne: () => import('@orama/stemmers/nepali'),
  nl: () => import('@orama/stemmers/dutch'),
  nn: () => import('@orama/stemmers/norwegian'),
  no: () => import('@orama/stemmers/norwegian'),
  pt: () => import('@orama/stemmers/portuguese'),
  ro: () => import('@orama/stemmers/romanian'),
  ru: () => import('@orama/stemmers/russian'),
  sa: () => import('@orama/stemmers/sanskrit'),
  sr: () => import('@orama/stemmers/serbian'),
  sv: () => import('@orama/stemmers/swedish'),
  ta: () => import('@orama/stemmers/tamil'),
  tr: () => import('@orama/stemmers/turkish'),
  uk: () => import('@orama/stemmers/ukrainian'),
};

/** The languages whose words are stemmed (besides English): what the README lists. */
export const STEMMED = Object.keys(STEMMERS);

const loaded = new Map<string, Promise<SearchLanguage>>();

/**
 * The language of an index that records `name` (or of a site in that BCP 47
 * tag) and `stopWords`. A language Orama has no stemmer for still splits
 * words of any script and folds them. English has its own stop words.
 */
export function loadSearchLanguage(name: string, stopWords: readonly string[] = []): Promise<SearchLanguage> {
  const key = searchLanguageName(name);
  if (key === ENGLISH_NAME) return Promise.resolve(ENGLISH);
  const id = JSON.stringify([key, stopWords]);
  let language = loaded.get(id);
  if (!language) {
    const stemmer = Object.hasOwn(STEMMERS, key) ? STEMMERS[key]!().then((m) => m.stemmer) : Promise.resolve(undefined);
    language = stemmer.then((s) => unicodeLanguage(key, s, stopWords));
    // A failed import is tried again on the next open, not kept.
    language.catch(() => loaded.delete(id));
    loaded.set(id, language);
  }
  return language;
}

/** Turkish and Azerbaijani lowercase I to dotless ı (folded to i like the rest); every other language as JavaScript does. */
function lowercase(name: string): (text: string) => string {
  return name === 'tr' || name === 'az' ? (text) => text.toLocaleLowerCase(name) : (text) => text.toLowerCase();
}

/**
 * A language of words of any script: a token is the word stemmed, then
 * folded. Stemming sees the accents it was written for ("activités" →
 * "activ"); a query typed without them that stems otherwise ("activite" →
 * "activit") is not in the index, and is corrected against the vocabulary,
 * where the accented word is the same once folded (./typo.ts).
 */
function unicodeLanguage(name: string, stemmer: Stemmer | undefined, stopWords: readonly string[]): SearchLanguage {
  const lower = lowercase(name);
  const fold = cached(foldWord);
  const stops = new Set(stopWords.map((w) => fold(lower(w))));
  const token = (word: string): string => {
    const folded = fold(word);
    if (stops.has(folded)) return '';
    return (stemmer && foldWord(stemmer(word))) || folded;
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
    inVocabulary: (word) => fold(word).length >= MIN_TYPO_LENGTH && /^[\p{L}\p{M}]+$/u.test(word),
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
