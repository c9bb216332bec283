// One typo per word (D12): a query word that the index does not know is
// replaced by the corpus words one edit away from it. Done on whole words,
// before stemming, because stems of misspelt words drift apart
// ("deliverabilty" stems to "deliverabilti", "deliverability" to "deliver").

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

/** The vocabulary, split once per length on first use. */
export class Vocabulary {
  private readonly split = new Map<number, readonly string[]>();

  constructor(private readonly byLength: Readonly<Record<string, string>>) {}

  private words(length: number): readonly string[] {
    let words = this.split.get(length);
    if (!words) {
      const bucket = Object.hasOwn(this.byLength, length) ? this.byLength[length]! : '';
      words = bucket ? bucket.split(' ') : [];
      this.split.set(length, words);
    }
    return words;
  }

  /** Corpus words one edit away from `word`, at most `max` of them, in vocabulary order. */
  corrections(word: string, max = 8): string[] {
    if (word.length < MIN_TYPO_LENGTH) return [];
    const found: string[] = [];
    for (const length of [word.length, word.length - 1, word.length + 1]) {
      for (const candidate of this.words(length)) {
        if (candidate !== word && withinOneEdit(word, candidate)) {
          found.push(candidate);
          if (found.length === max) return found;
        }
      }
    }
    return found;
  }
}

/** Groups words of at least MIN_TYPO_LENGTH letters by length, sorted and space-separated (the index's `vocabulary`). */
export function vocabularyOf(words: Iterable<string>): Record<string, string> {
  const byLength = new Map<number, Set<string>>();
  for (const word of words) {
    if (word.length < MIN_TYPO_LENGTH || !/^[a-z]+$/.test(word)) continue;
    let set = byLength.get(word.length);
    if (!set) byLength.set(word.length, (set = new Set()));
    set.add(word);
  }
  return Object.fromEntries([...byLength].sort(([a], [b]) => a - b).map(([length, set]) => [String(length), [...set].sort().join(' ')]));
}
