// Incremental builds: which responses may have changed since the previous
// build, from a digest of the two site models. respond() still decides every
// byte (D38); this only decides which targets need asking again. Everything
// it is not sure about is asked again, so the output always equals a clean
// build's (test/incremental-*.test.ts prove it for each kind of edit).
//
// The rules:
// - A change outside the posts (site.yaml, the profile, services, projects,
//   the site URL) may show on any page: every target is asked.
// - The build clock: every page shows its year, so a new year asks every
//   target. The build records which responses read the day or the time
//   (core/clock.ts), and a clock that moved that far asks for those again:
//   on a new day availability, the sitemap and what shows the about page;
//   later the same day nothing but the Atom feed of a site without posts. The
//   model for the functions shows the whole clock (model-file.ts).
// - A post added, removed, published, unpublished or moved in the order, or
//   a change to its tags (tag pages, their counts and every related list may
//   move): every target is asked.
// - A change to another field lists show (title, summary, reading time, a
//   date that keeps the order, …): every shared target is asked (lists, tag
//   pages, feeds, documents) but the pages of lists that cannot show that
//   post: the tag pages of its other tags, and the API's list pages its place
//   does not fall in (each family's `listings`). So are the own addresses of
//   that post and of the posts whose related posts show it (listedPlan). The
//   related lists and every post's place in each list are the same, since
//   they follow from the tags and the order alone.
// - A change to a post's body only (its Markdown, and so its HTML and text):
//   that post's own addresses are asked, and the shared documents that show
//   something of bodies (llms-full.txt, the full-content feeds, llms.txt's
//   token estimates: bodyDocuments in core/documents) — but not lists, tag
//   pages or other posts' own addresses, which show only listed fields.
import { bodyDocuments } from '../core/documents/index.js';
import { families } from '../core/families.js';
import type { Post, Site } from '../core/model.js';
import type { SiteModel } from '../core/site-model.js';
import { pagePath } from '../core/urls.js';
import { madeFrom, type Derived, type PostDigest } from '../derived.js';
import { digestPost, sha1Base64 } from './post-digest.js';
import type { BuildState, SiteDigest } from './build-state.js';

/** The reason of a plan that had no previous build to compare against (a cold build, or a cache that did not match the output). */
export const NO_PREVIOUS_BUILD = 'no previous build';

/**
 * Every target asked for, or those of the posts whose body `changed`, and,
 * when the build clock moved to another day or time (`clock`), those whose
 * response showed what moved.
 */
export type Plan =
  | { all: true; reason: string }
  | {
      all: false;
      /** Posts whose own addresses are asked, and whose sections of documents are made again. */
      changed: Set<string>;
      /** Posts among them whose listed fields changed: every shared target is asked too, but `unshown`. */
      listed?: Set<string>;
      /** The shared targets that cannot show a post of `listed` (listedPlan): list pages of other tags and other places. */
      unshown?: Set<string>;
      clock?: 'day' | 'time';
    };

// A post whose site-root links were made absolute is compared by the value it was made from (madeFrom).
// With `derived`, a post the previous model had too, or whose record brought its digest, is not hashed again.
function postDigest(post: Post, derived?: Derived): PostDigest {
  const from = madeFrom(post);
  let d = derived?.digests.get(from);
  if (!d) {
    d = digestPost(from);
    derived?.digests.set(from, d);
  }
  return d;
}

export function digestSite(site: Site, derived?: Derived): SiteDigest {
  // The tag list follows from the posts' tags, which each post's digest holds: an edit of them is named as such.
  const { posts, changes, built_at, tags: _tags, ...rest } = site;
  return {
    other: sha1Base64(JSON.stringify(rest)),
    clock: built_at,
    changes: sha1Base64(JSON.stringify(changes)),
    order: posts.map((p) => p.slug),
    posts: new Map(posts.map((p) => [p.slug, postDigest(p, derived)])),
  };
}

/**
 * The digest of `site` after an edit that changed only these posts (see
 * updateSite in site-update.ts): the rest is the previous digest's, but for posts
 * it marked pending, which get their own back.
 */
export function updateDigest(previous: SiteDigest, site: Site, posts: Post[], derived?: Derived): SiteDigest {
  const next = new Map(previous.posts);
  for (const post of posts) next.set(post.slug, postDigest(post, derived));
  for (const post of site.posts) if (next.get(post.slug)?.body === PENDING) next.set(post.slug, postDigest(post, derived));
  return {
    other: previous.other,
    clock: previous.clock,
    changes: sha1Base64(JSON.stringify(site.changes)),
    order: previous.order,
    posts: next,
  };
}

/**
 * The digest of an output whose own responses of these posts are new but
 * whose shared responses (lists, feeds, …) are not yet: a plan against it
 * asks for those posts, and so for the shared responses, again.
 */
export function pendingDigest(digest: SiteDigest, slugs: Iterable<string>): SiteDigest {
  const posts = new Map(digest.posts);
  for (const slug of slugs) {
    const d = posts.get(slug);
    if (d) posts.set(slug, { ...d, body: PENDING });
  }
  return { ...digest, posts };
}

const PENDING = '(not yet in the shared responses)';

/**
 * The plan after an edit that changed only these posts (see updateSite in
 * site-update.ts), without a look at the others' digests: what planBuild would
 * return for updateDigest(previous, site, posts).
 */
export function planEdit(previous: SiteDigest, posts: Post[], derived?: Derived): Plan {
  const changed = new Set<string>();
  const listed = new Set<string>();
  for (const post of posts) {
    const before = previous.posts.get(post.slug);
    if (!before) return { all: true, reason: 'posts were added, removed or reordered' };
    const all = comparePost(post.slug, before, postDigest(post, derived), changed, listed);
    if (all) return all;
  }
  for (const [slug, d] of previous.posts) if (d.body === PENDING) changed.add(slug);
  return listed.size ? { all: false, changed, listed } : { all: false, changed };
}

/** Adds the post to `changed` (and `listed`) by what moved; the plan to ask for everything when its tags did. */
function comparePost(slug: string, before: PostDigest, d: PostDigest, changed: Set<string>, listed: Set<string>): Plan | null {
  if (before.tags !== d.tags) return { all: true, reason: `the tags of ${slug} changed` };
  if (before.list !== d.list) listed.add(slug);
  if (before.list !== d.list || before.body !== d.body) changed.add(slug);
  return null;
}

export function planBuild(previous: SiteDigest | null, next: SiteDigest): Plan {
  if (!previous) return { all: true, reason: NO_PREVIOUS_BUILD };
  if (previous.other !== next.other) return { all: true, reason: 'a change outside the posts' };
  const [clockBefore, clock] = [previous.clock, next.clock];
  if (clockBefore.slice(0, 4) !== clock.slice(0, 4))
    return { all: true, reason: 'the year of the build clock changed (every page shows it)' };
  if (previous.order.length !== next.order.length || previous.order.some((slug, i) => next.order[i] !== slug)) {
    return { all: true, reason: 'posts were added, removed or reordered' };
  }
  const changed = new Set<string>();
  const listed = new Set<string>();
  for (const [slug, d] of next.posts) {
    const all = comparePost(slug, previous.posts.get(slug)!, d, changed, listed);
    if (all) return all;
  }
  // The change log shows posts' titles and dates, which lists show too: after a listed field changed,
  // every shared target, the change log's among them, is asked anyway.
  if (previous.changes !== next.changes && listed.size === 0) return { all: true, reason: 'the change log changed' };
  const plan: Plan = listed.size ? { all: false, changed, listed } : { all: false, changed };
  if (clockBefore === clock) return plan;
  return { ...plan, clock: clockBefore.slice(0, 10) === clock.slice(0, 10) ? 'time' : 'day' };
}

/**
 * The plan with the posts whose related posts show a post of `listed`
 * added to `changed`: their pages and twins show its title. A post is
 * related only to posts it shares a tag with, so only those are looked at.
 */
export function listedPlan(plan: Plan, model: SiteModel): Plan {
  if (plan.all || !plan.listed?.size) return plan;
  const { listed } = plan;
  const changed = new Set(plan.changed);
  for (const slug of listed) {
    for (const tag of model.post(slug)!.tags) {
      for (const other of model.tagged(tag)) {
        if (!changed.has(other.slug) && model.related(other).some((r) => listed.has(r.slug))) changed.add(other.slug);
      }
    }
  }
  return { ...plan, changed, unshown: unshownLists(model, listed) };
}

/** The targets that list some posts but none of these (each family's listings). */
function unshownLists(model: SiteModel, listed: Set<string>): Set<string> {
  const posts = [...listed].map((slug) => model.posts.bySlug.get(slug)!);
  const unshown = new Set<string>();
  for (const family of families) {
    const listings = family.listings?.(model, posts);
    if (!listings) continue;
    const showing = new Set(listings.showing);
    for (const target of listings.targets) if (!showing.has(target)) unshown.add(target);
  }
  return unshown;
}

const POST_PAGE = pagePath.post('\0').split('\0')[0]!;
const API_POST = /^\/api\/[^/]+\/posts\/([^/?]+)$/;

/** The post a target belongs to alone (its page, twin and API record), or null for a shared target. */
export function ownerOf(target: string): string | null {
  // Asked of every target of an edit (31,000 at 10,000 posts): no array, and the pattern only where it can match.
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  if (path.startsWith('/api/')) return API_POST.exec(path)?.[1] ?? null;
  if (path.startsWith(POST_PAGE)) {
    const rest = path.slice(POST_PAGE.length, path.endsWith('.md') ? -3 : undefined);
    if (rest && !rest.includes('/')) return rest;
  }
  return null;
}

/**
 * Whether a document shows of the bodies (`shown`, core/documents
 * bodiesShown) what the previous build's showed: then an edit keeps it
 * (llms.txt, when no token estimate changed). Remembered in `state` either way.
 */
export function showsAsBefore(plan: Plan, previous: BuildState | null, state: BuildState, target: string, shown: string | null): boolean {
  if (shown === null) return false;
  const digest = sha1Base64(shown);
  state.shown!.set(target, digest);
  return !plan.all && !plan.listed && previous?.shown?.get(target) === digest;
}

/** Whether the plan asks respond() for this target again. */
export function mustAsk(plan: Plan, target: string): boolean {
  if (plan.all) return true;
  if (plan.changed.size === 0) return false;
  // A post's own addresses hold its slug (ownerOf): after an edit of bodies alone, a target that holds none
  // of the changed slugs is asked only as a body document. At 10,000 posts an edit asks this of 31,000
  // targets, and ownerOf's pattern for each cost 20-40 ms.
  if (!plan.listed && !holdsAny(target, plan.changed)) return bodyDocuments.has(target);
  const owner = ownerOf(target);
  if (owner !== null) return plan.changed.has(owner);
  return (plan.listed !== undefined && !plan.unshown?.has(target)) || bodyDocuments.has(target);
}

function holdsAny(target: string, slugs: ReadonlySet<string>): boolean {
  for (const slug of slugs) if (target.includes(slug)) return true;
  return false;
}

/** Whether the previous build's response of this target showed the part of the build clock that moved: asked again, and made whole. */
export function showsMovedClock(plan: Plan, previous: BuildState | null, target: string): boolean {
  if (plan.all || !plan.clock) return false;
  const read = previous?.clock?.get(target);
  return read === 'time' || (read === 'day' && plan.clock === 'day');
}
