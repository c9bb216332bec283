// Values derived from immutable content records, kept by whoever assembles
// models in a row: folio dev keeps one for its session, so a record the next
// model shares with the previous one keeps its derived values, and their
// identity, instead of having them made again. A build makes each value
// once, but for the post digests its records brought (emit/post-digest.ts),
// which it is given in one. The functions that use it (withAbsoluteLinks in site.ts,
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
  /** A post of the model → its digest. */
  readonly digests = new WeakMap<Post, PostDigest>();
}
