// A post edit applied to the model (folio dev's one-post edit): the next
// model from the previous one, without the whole-site work of assembleSite.
import type { Post, Site } from './core/model.js';
import type { SiteModel } from './core/site-model.js';
import type { FileLink } from './content/kinds.js';
import { ContentError } from './content/problems.js';
import { postWithImages, type ImageTable } from './site-images.js';
import { brokenLinks } from './site-links.js';
import type { ReadContent } from './site.js';
import { withAbsoluteLinks } from './site-absolute.js';
import type { Derived } from './derived.js';

/**
 * The model after an edit of published posts that keeps every address and
 * the order (their bodies, titles, summaries, …), from the model before it:
 * what assembleSite(after) returns, without the whole-site work (ordering,
 * tags, every link of every file). `before` is what `previous` was
 * assembled from; records that did not change keep their identity (as
 * readContentFast returns them from its memo). Null when the edit may change
 * more: a file added, removed or renamed, anything outside the posts, a
 * problem, a draft, or a post's slug, date, updated or tags. Throws the ContentError
 * assembleSite would for a broken link in an edited post.
 */
export function updateSite(
  previous: SiteModel,
  before: ReadContent,
  after: ReadContent,
  images?: ImageTable,
  derived?: Derived,
): { model: SiteModel; posts: Post[] } | null {
  const known = previous.links;
  if (!known || before.dir !== after.dir || before.site !== after.site || before.profile !== after.profile) return null;
  if (
    !sameItems(before.services, after.services) ||
    !sameItems(before.projects, after.projects) ||
    before.posts.length !== after.posts.length
  )
    return null;
  const url = previous.site.config.site_url;
  const changed: { slug: string; next: Post; links: FileLink[] }[] = [];
  for (let i = 0; i < after.posts.length; i++) {
    const a = after.posts[i]!;
    const b = before.posts[i]!;
    if (a === b) continue;
    if (a.file !== b.file || a.problems.length || b.problems.length || !a.read || !b.read || a.read.draft || b.read.draft) return null;
    // An edited post with images needs them resolved (`images`, from the caller).
    if (a.read.images.length && !images) return null;
    changed.push({
      slug: b.read.value.slug,
      next: a.read.images.length ? postWithImages(a.read, images, url) : withAbsoluteLinks(a.read, 'content_markdown', url, derived),
      links: a.read.links,
    });
  }
  if (!changed.length) return null;
  const posts = previous.site.posts.slice();
  const edited: { old: Post; next: Post; links: FileLink[] }[] = [];
  for (const { slug, next, links } of changed) {
    // By slug: the model holds a post with images as a copy with its images
    // resolved, and slugs are unique, so the one published post of that slug is its own.
    const i = previous.posts.bySlug.get(slug);
    // Not published (dated after the clock), or moved in the order, renamed,
    // tagged or aliased otherwise.
    if (i === undefined) return null;
    const old = previous.site.posts[i]!;
    if (
      old.slug !== next.slug ||
      old.date !== next.date ||
      old.updated !== next.updated ||
      old.tags.join('\0') !== next.tags.join('\0') ||
      old.aliases.join('\0') !== next.aliases.join('\0')
    )
      return null;
    posts[i] = next;
    edited.push({ old, next, links });
  }
  // The changes name each post by its title (D61); its dates are unchanged here.
  const titles = new Map(edited.filter((e) => e.old.title !== e.next.title).map((e) => [e.next.slug, e.next.title]));
  const changes = titles.size
    ? {
        ...previous.site.changes,
        entries: previous.site.changes.entries.map((c) => (c.type === 'post' && titles.has(c.id) ? { ...c, title: titles.get(c.id)! } : c)),
      }
    : previous.site.changes;
  const site: Site = { ...previous.site, posts, changes };
  const broken = brokenLinks(
    site,
    edited.flatMap((e) => e.links),
    known,
    after,
  );
  if (broken.length) throw new ContentError(broken);
  return { model: previous.withPosts(site), posts: edited.map((e) => e.next) };
}

function sameItems<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
