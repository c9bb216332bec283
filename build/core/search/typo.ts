// One typo per word (D12): a query word that the index does not know is
// replaced by the corpus words one edit away from it. Done on whole words,
// before stemming, because stems of misspelt words drift apart
// ("deliverabilty" stems to "deliverabilti", "deliverability" to "deliver").
// Words are compared folded, so one that differs only by its accents is no
// edit at all.

/** Shorter words would match too much with one edit ("ssh" → "sh", "ash", "shh"). */
export const MIN_TYPO_LENGTH = 4;

/** At most one insertion, deletion, substitution, or swap of two adjacent letters turns `a` into `b`. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * Words of the vocabulary one edit away from `word`, at most `max`, in the
 * order `candidates` gives them: those of the word's length, then one less,
 * then one more. Words are compared folded (a language's `fold`), so a word
 * that differs only by its accents ("activite", "activité") counts as one;
 * `exact` asks for those alone. `candidates(length)` lists the vocabulary's
 * words of that folded length.
 */
export function nearWords(
  word: string,
  fold: (word: string) => string,
  candidates: (length: number) => Iterable<string>,
  max = 8,
  exact = false,
): string[] {
  const key = fold(word);
  if (key.length < MIN_TYPO_LENGTH) return [];
  const found: string[] = [];
  for (const length of exact ? [key.length] : [key.length, key.length - 1, key.length + 1]) {
    for (const candidate of candidates(length)) {
      if (candidate !== word && (exact ? key === fold(candidate) : withinOneEdit(key, fold(candidate)))) {
        found.push(candidate);
        if (found.length === max) return found;
      }
    }
  }
  return found;
}

/** The vocabulary, split once per length on first use. */
export class Vocabulary {
  private readonly split = new Map<number, readonly string[]>();

  constructor(
    private readonly byLength: Readonly<Record<string, string>>,
    private readonly fold: (word: string) => string,
  ) {}

  private words(length: number): readonly string[] {
    let words = this.split.get(length);
    if (!words) {
      const bucket = Object.hasOwn(this.byLength, length) ? this.byLength[length]! : '';
      words = bucket ? bucket.split(' ') : [];
      this.split.set(length, words);
    }
    return words;
  }

  /** Corpus words one edit away from `word` (nearWords), at most `max` of them, in vocabulary order; with `exact`, those the same once folded. */
  corrections(word: string, max = 8, exact = false): string[] {
    return nearWords(word, this.fold, (length) => this.words(length), max, exact);
  }
}

/**
 * The words `keep` lets in, grouped by the length of their folded form,
 * each group sorted and space-separated (the index's `vocabulary`).
 */
export function vocabularyOf(
  words: Iterable<string>,
  keep: (word: string) => boolean,
  fold: (word: string) => string,
): Record<string, string> {
  const byLength = new Map<number, Set<string>>();
  for (const word of words) {
    if (!keep(word)) continue;
    const length = fold(word).length;
    let set = byLength.get(length);
    if (!set) byLength.set(length, (set = new Set()));
    set.add(word);
  }
  return Object.fromEntries([...byLength].sort(([a], [b]) => a - b).map(([length, set]) => [String(length), [...set].sort().join(' ')]));
}
