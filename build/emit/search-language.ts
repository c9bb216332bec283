// The language a site's search index is built in (D12): the tokenizer of
// core/search/language.ts with Orama's stop words for the site's language,
// which the index then records for the functions (they carry no list of
// their own). Build-only: every language's list is here.
import { searchLanguage, searchLanguageName, type SearchLanguage } from '../core/search/language.js';

type StopWords = () => Promise<{ stopwords: string[] }>;

/** @orama/stopwords by primary language subtag (English's are folio's own, core/search/tokenizer.ts). */
const STOP_WORDS: Record<string, StopWords> = {
  ar: () => import('@orama/stopwords/arabic'),
  bg: () => import('@orama/stopwords/bulgarian'),
  da: () => import('@orama/stopwords/danish'),
  de: () => import('@orama/stopwords/german'),
  el: () => import('@orama/stopwords/greek'),
  es: () => import('@orama/stopwords/spanish'),
  fi: () => import('@orama/stopwords/finnish'),
  fr: () => import('@orama/stopwords/french'),
  ga: () => import('@orama/stopwords/irish'),
  hi: () => import('@orama/stopwords/indian'),
  hu: () => import('@orama/stopwords/hungarian'),
  hy: () => import('@orama/stopwords/armenian'),
  id: () => import('@orama/stopwords/indonesian'),
  it: () => import('@orama/stopwords/italian'),
  ja: () => import('@orama/stopwords/japanese'),
  lt: () => import('@orama/stopwords/lithuanian'),
  nb: () => import('@orama/stopwords/norwegian'),
  ne: () => import('@orama/stopwords/nepali'),
  nl: () => import('@orama/stopwords/dutch'),
  nn: () => import('@orama/stopwords/norwegian'),
  no: () => import('@orama/stopwords/norwegian'),
  pt: () => import('@orama/stopwords/portuguese'),
  ro: () => import('@orama/stopwords/romanian'),
  ru: () => import('@orama/stopwords/russian'),
  sa: () => import('@orama/stopwords/sanskrit'),
  sl: () => import('@orama/stopwords/slovenian'),
  sr: () => import('@orama/stopwords/serbian'),
  sv: () => import('@orama/stopwords/swedish'),
  ta: () => import('@orama/stopwords/tamil'),
  tr: () => import('@orama/stopwords/turkish'),
  uk: () => import('@orama/stopwords/ukrainian'),
  zh: () => import('@orama/stopwords/mandarin'),
};

/** The search language of a site written in `tag` (site.yaml's `language`, BCP 47). */
export async function siteSearchLanguage(tag: string): Promise<SearchLanguage> {
  const name = searchLanguageName(tag);
  // A byte order mark sits at the start of one of Orama's lists.
  const stopWords = Object.hasOwn(STOP_WORDS, name) ? (await STOP_WORDS[name]!()).stopwords.map((w) => w.replace(/^\ufeff/, '')) : [];
  return searchLanguage(name, stopWords);
}
