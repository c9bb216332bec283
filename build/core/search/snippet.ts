// The snippet of a hit: the stretch of its text where the query's words are
// densest, cut at word boundaries, so a reader sees why it matched (D12).

/** Characters of text a snippet shows, about two lines. */
export const SNIPPET_LENGTH = 180;
/** How much text to keep before the first matching word. */
const LEAD = 50;

/** a–z, 0–9 and the Latin-1 letters: the characters a word is made of (hyphens and apostrophes split words, as in the index). */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 0xdf && c <= 0xff && c !== 0xf7);
}

interface Match {
  at: number;
  token: string;
}

/**
 * `normalize` maps a word to its index token ("" for a stop word), the same
 * way the index did. Only words that share their first three letters with a
 * query token are normalized: stemming keeps the start of an English word.
 */
export function snippet(
  texts: readonly string[],
  tokens: ReadonlySet<string>,
  normalize: (word: string) => string,
  length = SNIPPET_LENGTH,
): string {
  const prefixes = new Set([...tokens].map((t) => t.slice(0, 3)));
  // The body usually holds the match; when only the title, tags or summary do, the summary may show it.
  for (const text of texts) {
    const around = excerpt(text, tokens, prefixes, normalize, length);
    if (around !== null) return around;
  }
  const first = texts.find(Boolean) ?? '';
  return cut(first, 0, length);
}

/** The excerpt around the densest matches in `text`, or null when no word of it matches. */
function excerpt(
  text: string,
  tokens: ReadonlySet<string>,
  prefixes: ReadonlySet<string>,
  normalize: (word: string) => string,
  length: number,
): string | null {
  // Find the prefixes rather than tokenize every word: far fewer words get stemmed.
  const lower = text.toLowerCase();
  const matches: Match[] = [];
  for (const prefix of prefixes) {
    for (let at = lower.indexOf(prefix); at !== -1; at = lower.indexOf(prefix, at + 1)) {
      if (at > 0 && isWordChar(lower.charCodeAt(at - 1))) continue;
      let end = at + prefix.length;
      while (end < lower.length && isWordChar(lower.charCodeAt(end))) end++;
      const token = normalize(lower.slice(at, end));
      if (tokens.has(token)) matches.push({ at, token });
    }
  }
  matches.sort((a, b) => a.at - b.at);
  if (matches.length === 0) return null;
  // The window that starts at a match and holds the most distinct query tokens; the earliest wins a tie.
  let best = matches[0]!;
  let bestCount = 0;
  for (let i = 0; i < matches.length; i++) {
    const seen = new Set<string>();
    for (let j = i; j < matches.length && matches[j]!.at < matches[i]!.at + length - LEAD; j++) seen.add(matches[j]!.token);
    if (seen.size > bestCount) {
      best = matches[i]!;
      bestCount = seen.size;
    }
  }
  return cut(text, Math.max(0, best.at - LEAD), length);
}

/** `length` characters of `text` from about `start`, on word boundaries, with an ellipsis where text was left out. */
function cut(text: string, start: number, length: number): string {
  if (start > 0) {
    // Start at a sentence when one begins shortly before, else after the previous space.
    const sentence = text.lastIndexOf('. ', start + 20);
    start = sentence >= start - 20 && sentence !== -1 ? sentence + 2 : Math.max(0, text.lastIndexOf(' ', start) + 1);
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + length / 2) end = space;
  }
  const body = text
    .slice(start, end)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s,;:]+$/, '');
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
