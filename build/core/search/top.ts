// The best hits of a query, shared by both engines (./engine.ts, ./sharded.ts).

/** The `limit` best [id, score] pairs, highest score first, ties by index order (posts, then projects, then services). */
export function top(ids: readonly number[], score: (id: number) => number, limit: number): [number, number][] {
  const best: [number, number][] = [];
  const before = (a: number, b: number) => score(a) > score(b) || (score(a) === score(b) && a < b);
  for (const id of ids) {
    if (best.length === limit && !before(id, best[limit - 1]![0])) continue;
    let i = best.length === limit ? limit - 1 : best.length;
    while (i > 0 && before(id, best[i - 1]![0])) {
      best[i] = best[i - 1]!;
      i--;
    }
    best[i] = [id, score(id)];
  }
  return best;
}
