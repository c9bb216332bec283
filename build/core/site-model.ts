// The site model and what is derived from it, in one object: posts by slug,
// by tag and by pair of tags, the related posts found so far, the page table,
// the twins built so far and the link set. respond() reads them from the
// Runtime; nothing is kept beside the object. Each index is built the first
// time it is asked for, so a function pays only for what its request reads
// (D55). An edit that keeps every post's slug, date and tags in the same
// order keeps every position, so `withPosts` hands the indexes over to the
// next model (folio dev's one-post edit, updateSite in site-update.ts).
import type { Post, Site } from './model.js';
import { pagePath } from './urls.js';

export interface PostIndex {
  /** Position in site.posts of each slug. */
  bySlug: Map<string, number>;
  /** Each tag's posts as positions, in site order (newest first). */
  byTag: Map<string, number[]>;
}

/** What answers a page path: a page of its own, or a service, tag, post or project page by name or position (routes.ts builds it). */
export type PageRef =
  | { kind: 'home' | 'about' | 'services' | 'blog' | 'projects' | 'developers' }
  | { kind: 'tag'; tag: string }
  | { kind: 'service' | 'post' | 'project'; at: number };

/** What an edit that keeps every position keeps: the indexes of positions and the answers found so far. */
interface Kept {
  posts?: PostIndex;
  pairs?: Map<string, number[]>;
  related: Map<string, number[]>;
  pages?: Map<string, PageRef>;
  links: ReadonlySet<string> | null;
}

/** See SiteModel.lists. */
export interface ListMarkup {
  known: Set<string>;
  /** By heading level: h2 items, then h3 items. */
  items: [Map<Post, string>, Map<Post, string>];
  lines: Map<Post, string>;
}

export class SiteModel {
  /**
   * The twin of each page built so far, by path: the build asks for a page
   * and then its twin, and llms-full.txt and MCP read every twin. The pages
   * themselves are not kept: at 10,000 posts their HTML was the largest part
   * of the heap.
   */
  readonly twins = new Map<string, string>();
  /**
   * The UTF-8 size of twins, for the token estimates of llms.txt (D53):
   * those an incremental build keeps from the previous one (emit records
   * them, so they are not built), and the others once measured (llms.txt
   * and what it shows of the bodies, emit's showsAsBefore, read them all).
   */
  readonly twinSizes = new Map<string, number>();
  /**
   * What of the build clock each page built so far read (core/clock.ts), by
   * path, or an incremental build's record of it for a twin it kept: a
   * response that reuses the page's twin or its size shows it too.
   */
  readonly pageClock = new Map<string, 'day' | 'time'>();
  #kept: Kept;
  /** The previous build's related lists by position (adoptRelated), or null. */
  #relatedBefore: Int32Array | null = null;
  #lists: ListMarkup | null = null;
  /** How many related lists this model was asked to find. */
  #asked = 0;

  constructor(
    readonly site: Site,
    kept: Kept = { related: new Map(), links: null },
  ) {
    this.#kept = kept;
  }

  /**
   * The model of `site`, which is this one's with some posts replaced by
   * records of the same slug, date and tags in the same order: the indexes
   * of positions and the related lists stay; the twins are built anew.
   */
  withPosts(site: Site): SiteModel {
    return new SiteModel(site, this.#kept);
  }

  /**
   * Markup the lists repeat (the blog, each tag's page and the home page show
   * the same post items): the tags that have a page, and each post's list
   * item as HTML at either heading level and as Markdown, made once per model.
   */
  get lists(): ListMarkup {
    return (this.#lists ??= { known: new Set(this.site.tags.map((t) => t.tag)), items: [new Map(), new Map()], lines: new Map() });
  }

  /** Posts by slug and by tag. */
  get posts(): PostIndex {
    if (!this.#kept.posts) {
      const index: PostIndex = { bySlug: new Map(), byTag: new Map() };
      this.site.posts.forEach((p, i) => {
        index.bySlug.set(p.slug, i);
        for (const t of p.tags) (index.byTag.get(t) ?? index.byTag.set(t, []).get(t)!).push(i);
      });
      this.#kept.posts = index;
    }
    return this.#kept.posts;
  }

  /** Posts by pair of tags they both carry, keyed by pairKey (a post sharing c tags is in c(c-1)/2 of its pairs). */
  get pairs(): Map<string, number[]> {
    if (!this.#kept.pairs) {
      const byPair = new Map<string, number[]>();
      this.site.posts.forEach(({ tags }, i) => {
        for (let a = 0; a < tags.length; a++) {
          for (let b = a + 1; b < tags.length; b++) {
            const key = pairKey(tags[a]!, tags[b]!);
            (byPair.get(key) ?? byPair.set(key, []).get(key)!).push(i);
          }
        }
      });
      this.#kept.pairs = byPair;
    }
    return this.#kept.pairs;
  }

  /** Every page path, in the order of the sitemap: the fixed pages, then services, tags, posts and projects. */
  get pages(): Map<string, PageRef> {
    if (!this.#kept.pages) {
      const { site } = this;
      this.#kept.pages = new Map<string, PageRef>([
        [pagePath.home(), { kind: 'home' }],
        [pagePath.about(), { kind: 'about' }],
        [pagePath.services(), { kind: 'services' }],
        [pagePath.blog(), { kind: 'blog' }],
        [pagePath.projects(), { kind: 'projects' }],
        [pagePath.developers(), { kind: 'developers' }],
        ...site.services.map((s, at): [string, PageRef] => [pagePath.service(s.id), { kind: 'service', at }]),
        ...site.tags.map(({ tag }): [string, PageRef] => [pagePath.tag(tag), { kind: 'tag', tag }]),
        ...site.posts.map((p, at): [string, PageRef] => [pagePath.post(p.slug), { kind: 'post', at }]),
        ...site.projects.map((p, at): [string, PageRef] => [pagePath.project(p.id), { kind: 'project', at }]),
      ]);
    }
    return this.#kept.pages;
  }

  /** Every site path a link may point at (knownPaths in site-links.ts), once the site's links were checked against it. */
  get links(): ReadonlySet<string> | null {
    return this.#kept.links;
  }

  /** Records the link set assembleSite checked the links against; an edit that keeps every address keeps it. */
  checkedAgainst(links: ReadonlySet<string>): this {
    this.#kept.links = links;
    return this;
  }

  /** The published post with this slug. */
  post(slug: string): Post | undefined {
    const at = this.posts.bySlug.get(slug);
    return at === undefined ? undefined : this.site.posts[at];
  }

  /** The posts carrying a tag, newest first (site order). */
  tagged(tag: string): Post[] {
    return (this.posts.byTag.get(tag) ?? []).map((i) => this.site.posts[i]!);
  }

  /**
   * Up to three other posts that share the most tags, newest first among
   * equals. Posts sharing two or more tags are found pair of tags by pair
   * (c tags, c(c-1)/2 pairs): from the index of posts by pair, a few dozen
   * each, or for a model's first few lists from the two tags' lists; only
   * when fewer than three do are posts sharing one tag walked, newest first,
   * and only until three are found. Counting every post of every tag instead
   * took 1.3 s at 10,000 posts. Each list is kept: a page built again (for
   * folio dev's next model, or by a function) asks again.
   */
  related(post: Post): Post[] {
    return this.#relatedAt(post).map((i) => this.site.posts[i]!);
  }

  /**
   * Takes the previous build's related lists (relatedTable) for a model
   * whose posts have its order and tags, from which alone the lists follow:
   * related() then reads them rather than finding them (at 10,000 posts a
   * title edit asks for the lists of the 2,000 posts that share a tag with
   * it, incremental.ts listedPlan).
   */
  adoptRelated(table: Int32Array): void {
    if (table.length === this.site.posts.length * RELATED) this.#relatedBefore = table;
  }

  /** Every post's related posts by position, RELATED a post in site order, -1 where a post has fewer: what the next build adopts. */
  relatedTable(): Int32Array {
    // The adopted lists are every post's, as this model would find them.
    if (this.#relatedBefore) return this.#relatedBefore;
    const table = new Int32Array(this.site.posts.length * RELATED).fill(-1);
    this.site.posts.forEach((post, i) => this.#relatedAt(post).forEach((at, k) => (table[i * RELATED + k] = at)));
    return table;
  }

  #relatedAt(post: Post): number[] {
    const found = this.#kept.related;
    const known = found.get(post.slug);
    if (known) return known;
    const { byTag, bySlug } = this.posts;
    const self = bySlug.get(post.slug);
    const before = this.#relatedBefore;
    if (before && self !== undefined) {
      const list: number[] = [];
      for (let k = 0; k < RELATED && before[self * RELATED + k]! >= 0; k++) list.push(before[self * RELATED + k]!);
      found.set(post.slug, list);
      return list;
    }
    // The index by pair pays for itself over many posts' lists (a build's every page), but costs
    // 45 ms to make at 10,000 posts; the few lists of an edit intersect two tags' lists instead.
    const pairs = ++this.#asked > PAIRS_AFTER || this.#kept.pairs ? this.pairs : null;
    const best: number[] = [];
    const shared: number[] = [];
    const consider = (i: number, count: number) => {
      let at = best.length;
      while (at > 0 && (shared[at - 1]! < count || (shared[at - 1] === count && best[at - 1]! > i))) at--;
      if (at < RELATED) {
        best.splice(at, 0, i);
        shared.splice(at, 0, count);
        if (best.length > RELATED) {
          best.pop();
          shared.pop();
        }
      }
    };
    const tags = post.tags;
    const inPairs = new Map<number, number>();
    const count = (i: number) => void inPairs.set(i, (inPairs.get(i) ?? 0) + 1);
    for (let a = 0; a < tags.length; a++) {
      for (let b = a + 1; b < tags.length; b++) {
        if (pairs) for (const i of pairs.get(pairKey(tags[a]!, tags[b]!)) ?? []) count(i);
        else bothTagged(byTag.get(tags[a]!) ?? [], byTag.get(tags[b]!) ?? [], count);
      }
    }
    for (const [i, m] of inPairs) if (i !== self) consider(i, (1 + Math.sqrt(1 + 8 * m)) / 2);
    if (best.length < RELATED) {
      // Every post sharing two tags is in; the rest share one: merge the tags' lists, newest first.
      const lists = tags.map((t) => byTag.get(t) ?? []);
      const heads = lists.map(() => 0);
      const chosen = new Set(best);
      while (best.length < RELATED) {
        let i = Infinity;
        lists.forEach((list, k) => (i = Math.min(i, list[heads[k]!] ?? Infinity)));
        if (i === Infinity) break;
        lists.forEach((list, k) => void (list[heads[k]!] === i && heads[k]!++));
        if (i !== self && !chosen.has(i)) {
          best.push(i);
          chosen.add(i);
        }
      }
    }
    found.set(post.slug, best);
    return best;
  }
}

/** How many related posts a post shows. */
const RELATED = 3;

/** How many related lists a model finds before it indexes posts by pair of tags. */
const PAIRS_AFTER = 16;

/** Calls `each` with every position in both lists: positions ascend in each (site order), so one walk over both. */
function bothTagged(a: readonly number[], b: readonly number[], each: (i: number) => void): void {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      each(a[i]!);
      i++;
      j++;
    }
  }
}

/** The key of a pair of tags in SiteModel.pairs: the two in order, on two lines (a slug has no line break). */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}
