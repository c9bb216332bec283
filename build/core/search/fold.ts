// Diacritic folding (D12): what lets a query typed without accents find the
// accented word, and the other way round, in every language but English
// (whose tokens Orama folds its own way, ./tokenizer.ts). Pure and the same
// at build time and at run time: the index and the queries must fold alike.

/**
 * Marks that only decorate a letter: the combining diacritics of Latin,
 * Greek and Cyrillic, and the optional vowel points of Arabic and Hebrew
 * (with the Arabic tatweel, a stretch of the baseline). Marks that are part
 * of a letter, such as the vowel signs of Indic scripts or the voicing marks
 * of kana, are kept: dropping them would merge different words.
 */
const DECORATION = /[\u0300-\u036f\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]/g;

/** Letters that do not decompose into a base letter and marks, and the letters a reader types for them. */
const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: 'i',
  ł: 'l',
  þ: 'th',
  ŧ: 't',
  ς: 'σ',
};
const SPECIAL = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g');

/** Only text beyond ASCII can fold: most words are spared the normalization. */
const PLAIN = /^[\x00-\x7f]*$/;

/**
 * A lowercased word without its diacritics: compatibility forms replaced
 * ("ﬁ" → "fi", full-width "Ａ" → "a"), decorating marks dropped ("é" → "e",
 * "ё" → "е"), the letters above spelt out ("ß" → "ss", Turkish "ı" → "i"),
 * then composed again, so kana with voicing marks and Hangul stay whole.
 */
export function foldWord(word: string): string {
  if (PLAIN.test(word)) return word;
  return word
    .normalize('NFKD')
    .replace(DECORATION, '')
    .replace(SPECIAL, (c) => LETTERS[c]!)
    .normalize('NFC');
}
