// Values derived from immutable content records, kept by whoever assembles
// models in a row: folio dev keeps one for its session, so a record the next
// model shares with the previous one keeps its derived values, and their
// identity, instead of having them made again. A build makes each value
// once, but for the post digests its records brought (emit/post-digest.ts),
// which it is given in one. The functions that use it (withAbsoluteLinks in site-absolute.ts,
// the post digests of emit/incremental.ts) are pure: the memo changes how
// often they run, never what they return.
import type { Post } from './core/model.js';

/** What a post is compared by between builds: its listed fields, its tags among them, and its body. */
export interface PostDigest {
  list: string;
  /** The tags alone: with them and the order unchanged, every post's related posts are too. */
  tags: string;
  body: string;
}

export class Derived {
  /** A read value → that value with its site-root links made absolute, for one site URL. */
  readonly absolute = new WeakMap<object, { siteUrl: string; value: object }>();
  /** A post's read value (the model's post, or the value it was made from: madeFrom) → its digest. */
  readonly digests = new WeakMap<Post, PostDigest>();
}

const MADE_FROM = Symbol('folio.derived.made-from');

/**
 * Marks `value` as made from `source` by withAbsoluteLinks: its body is the
 * source's with site-root links made absolute, which the site URL alone
 * decides, and the site URL is in the site's own digest. So a post is
 * compared by the value it was made from, and its body need not be read to
 * be compared (a cached body stays in its record file, record-shard.ts).
 */
export function markMadeFrom(value: object, source: object): void {
  Object.defineProperty(value, MADE_FROM, { value: source });
}

/** The value `value` was made from (markMadeFrom), or `value` itself. */
export function madeFrom<T extends object>(value: T): T {
  return ((value as Record<symbol, unknown>)[MADE_FROM] as T | undefined) ?? value;
}
