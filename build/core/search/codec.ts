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

export function decodeIds(text: string): Int32Array {
  if (text === '') return new Int32Array(0);
  const parts = text.split(',');
  const ids = new Int32Array(parts.length);
  let id = 0;
  for (let i = 0; i < parts.length; i++) ids[i] = id += parseInt(parts[i]!, 36);
  return ids;
}

/** Occurrences above one, as "gap:count" pairs over ascending ids. */
export function encodeCounts(counts: Readonly<Record<number, number>>): string {
  const ids = Object.keys(counts).map(Number).sort((a, b) => a - b);
  let previous = 0;
  return ids
    .map((id) => {
      const pair = `${(id - previous).toString(36)}:${counts[id]!.toString(36)}`;
      previous = id;
      return pair;
    })
    .join(',');
}

export function decodeCounts(text: string): Map<number, number> {
  const counts = new Map<number, number>();
  let id = 0;
  for (const pair of text.split(',')) {
    const colon = pair.indexOf(':');
    id += parseInt(pair.slice(0, colon), 36);
    counts.set(id, parseInt(pair.slice(colon + 1), 36));
  }
  return counts;
}
