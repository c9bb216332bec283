// Postings in the index file: ascending internal ids as base-36 gaps,
// comma-separated ("1,2,a" is 1, 3, 13). A string parses far faster than an
// array of numbers, and is decoded only when a query first reaches its word.

export function encodeIds(ids: readonly number[]): string {
  let previous = 0;
  return ids
    .map((id) => {
      const gap = id - previous;
      previous = id;
      return gap.toString(36);
    })
    .join(',');
}

/** The value of a base-36 digit's char code (0-9, a-z). */
function digit(c: number): number {
  return c <= 57 ? c - 48 : c - 87;
}

/** One pass over the characters: no split, no substrings (a common word's postings run to thousands of ids). */
export function decodeIds(text: string): Int32Array {
  if (text === '') return new Int32Array(0);
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) count++;
  const ids = new Int32Array(count);
  let id = 0;
  let gap = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      ids[n++] = id += gap;
      gap = 0;
    } else gap = gap * 36 + digit(c);
  }
  ids[n] = id + gap;
  return ids;
}

/** Occurrences above one, as "gap:count" pairs over ascending ids. */
export function encodeCounts(counts: Readonly<Record<number, number>>): string {
  const ids = Object.keys(counts)
    .map(Number)
    .sort((a, b) => a - b);
  let previous = 0;
  return ids
    .map((id) => {
      const pair = `${(id - previous).toString(36)}:${counts[id]!.toString(36)}`;
      previous = id;
      return pair;
    })
    .join(',');
}

/**
 * Occurrences aligned with `ids` (the word's postings, ascending): 1 unless
 * `text` gives more. One pass over the characters, merged with `ids`.
 */
export function decodeCounts(text: string, ids: ArrayLike<number>): Float64Array {
  const tfs = new Float64Array(ids.length).fill(1);
  let id = 0;
  let value = 0;
  let at = 0;
  const put = (count: number) => {
    while (at < ids.length && ids[at]! < id) at++;
    if (at < ids.length && ids[at] === id) tfs[at] = count;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) {
      id += value; // ':' ends the gap
      value = 0;
    } else if (c === 44) {
      put(value); // ',' ends the count
      value = 0;
    } else value = value * 36 + digit(c);
  }
  if (text !== '') put(value);
  return tfs;
}
