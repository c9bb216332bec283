// Posts by slug and by tag, as positions in site.posts, built once per model:
// the build asks for every post, every tag's page and list, and scanning all
// posts each time made those O(posts²). Positions rather than
// objects, so an edit that keeps the order keeps the index (folio dev).
import type { Post, Site } from './model.js';

export interface PostIndex {
  bySlug: Map<string, number>;
  /** Each tag's posts in site order. */
  byTag: Map<string, number[]>;
  /** Each pair of tags' posts in site order, keyed "a\nb" with a < b; made when first asked for (tagPairs). */
  byPair?: Map<string, number[]>;
}

const indexes = new WeakMap<Site, PostIndex>();

export function postIndex(site: Site): PostIndex {
  let index = indexes.get(site);
  if (!index) {
    index = { bySlug: new Map(), byTag: new Map() };
    for (let i = 0; i < site.posts.length; i++) {
      const p = site.posts[i]!;
      index.bySlug.set(p.slug, i);
      for (const t of p.tags) (index.byTag.get(t) ?? index.byTag.set(t, []).get(t)!).push(i);
    }
    indexes.set(site, index);
  }
  return index;
}

/** The key of a pair of tags in PostIndex.byPair: the two in order, on two lines (a slug has no line break). */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}

/** Posts by pair of tags they both carry (related posts: a post sharing c tags is in c(c-1)/2 of its pairs). */
export function tagPairs(site: Site): Map<string, number[]> {
  const index = postIndex(site);
  if (!index.byPair) {
    const byPair = new Map<string, number[]>();
    for (let i = 0; i < site.posts.length; i++) {
      const tags = site.posts[i]!.tags;
      for (let a = 0; a < tags.length; a++) {
        for (let b = a + 1; b < tags.length; b++) {
          const key = pairKey(tags[a]!, tags[b]!);
          (byPair.get(key) ?? byPair.set(key, []).get(key)!).push(i);
        }
      }
    }
    index.byPair = byPair;
  }
  return index.byPair;
}

/** The posts carrying a tag, newest first (site order). */
export function taggedPosts(site: Site, tag: string): Post[] {
  return (postIndex(site).byTag.get(tag) ?? []).map((i) => site.posts[i]!);
}

/**
 * `next` is `previous` with some posts replaced by new records of the same
 * slug, date and tags, in the same order (folio dev's one-post edit): the
 * positions are the same, so the index is too.
 */
export function carryPostIndex(previous: Site, next: Site): void {
  const index = indexes.get(previous);
  if (index && !indexes.has(next)) indexes.set(next, index);
}
