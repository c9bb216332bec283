// Content problems: every one names the file, the line and column, what is
// wrong and how to fix it (D2), and all of them are reported at once.

export interface Problem {
  file: string;
  /** 0 for a problem of the file or folder as a whole, which has no place in it. */
  line: number;
  column: number;
  message: string;
  hint: string;
}

/** Where a problem is, as editors and terminals link it: file:line:column, or the file alone. */
export function problemPlace(p: Problem): string {
  return p.line ? `${p.file}:${p.line}:${p.column}` : p.file;
}

export function formatProblem(p: Problem): string {
  return `${problemPlace(p)}: ${p.message}\n  hint: ${p.hint}`;
}

/**
 * Thrown by the build when the content has problems; the CLI prints them and
 * exits 1. `unchecked` says what was not checked yet: the checks across files
 * (links, aliases) run on files that read cleanly, so they wait for these.
 */
export class ContentError extends Error {
  constructor(
    readonly problems: Problem[],
    readonly unchecked?: string,
  ) {
    super(
      `${problems.length} content problem${problems.length === 1 ? '' : 's'}:\n${problems.map(formatProblem).join('\n')}${unchecked ? `\nfolio: ${unchecked}` : ''}`,
    );
    this.name = 'ContentError';
  }
}

/** Levenshtein distance, for "Did you mean …?" hints. */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/**
 * The field of `known` that `key` is likely a misspelling of: the same but
 * for case, one edit away, or two for names of six letters or more (so a
 * short field of the author's own, like `lang`, is not taken for `tags`).
 */
export function nearField(key: string, known: readonly string[]): string | undefined {
  const near = closest(key, known);
  return near !== undefined && distance(key.toLowerCase(), near.toLowerCase()) <= (key.length >= 6 ? 2 : 1) ? near : undefined;
}
