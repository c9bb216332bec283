// "/blog", "/blog/tags/{tag}" and "/blog/{slug}" (D20).
import { mdLink, mdText } from '../markdown-text.js';
import type { Post, Site } from '../model.js';
import { pairKey, postIndex, tagPairs, taggedPosts } from '../post-index.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { body, html, plural } from './html.js';
import type { Page } from './page.js';
import { postList, postListMarkdown, postMeta, tagLinks } from './parts.js';
import { nothingYet } from './published.js';
import { listData, postData } from './structured-data.js';
import { bullets, facts, section, twin } from './twin.js';
import { listText, writingLabel } from '../statements.js';

function tagCloud(site: Site, current: string | null) {
  if (!site.tags.length) return '';
  return html`<nav class="tag-cloud" aria-label="Tags">
<h2 class="tag-cloud-title">Browse by tag</h2>
<ul class="tags">
${site.tags.map(
  (t) => html`<li><a href="${pagePath.tag(t.tag)}"${t.tag === current ? html` aria-current="page"` : ''}>${t.tag} <span class="count">${t.count}</span></a></li>
`,
)}</ul>
</nav>`;
}

/** "Field notes by Ada on postgres, kafka and more.": the six largest tags; "and more" only when there are more. */
function blogDescription(site: Site): string {
  if (!site.posts.length) return `${site.profile.name}'s writing: ${nothingYet('posts').toLowerCase()}`;
  const top = site.tags.slice().sort((a, b) => b.count - a.count).map((t) => t.tag);
  const topics = top.length > 6 ? `${top.slice(0, 6).join(', ')} and more` : listText(top);
  return `${writingLabel(site)} by ${site.profile.name}${topics ? ` on ${topics}` : ''}.`;
}

export function blogPage(site: Site): Page {
  const md = (path: string) => absolute(site, twinPath(path));
  const main = html`<h1>Writing</h1>
${
  site.posts.length
    ? html`<p class="lead">${writingLabel(site)} by ${site.profile.name}: ${plural(site.posts.length, 'post')}, newest first.</p>
${tagCloud(site, null)}
${postList(site, site.posts)}`
    : html`<p class="lead">${nothingYet('posts')}</p>`
}`;

  const markdown = twin(
    'Writing',
    site.posts.length ? null : nothingYet('posts'),
    facts([
      ['Posts', String(site.posts.length)],
      ['Order', site.posts.length ? 'newest first' : null],
      ['HTML', absolute(site, pagePath.blog())],
      ['JSON', `${apiBase(site)}/posts`],
      ['Feed', `${site.config.site_url}/feed.xml`],
    ]),
    section('Posts', postListMarkdown(site, site.posts)),
    section('Tags', bullets(site.tags.map((t) => `${mdLink(t.tag, md(pagePath.tag(t.tag)))} (${plural(t.count, 'post')})`))),
  );

  return {
    path: pagePath.blog(),
    title: 'Writing',
    description: blogDescription(site),
    section: 'blog',
    type: 'website',
    main,
    markdown,
    data: listData(site, [['Writing', pagePath.blog()]]),
  };
}

export function tagPage(site: Site, tag: string): Page {
  const posts = taggedPosts(site, tag);
  const title = `Posts tagged “${tag}”`;
  const main = html`<p class="crumbs"><a href="${pagePath.blog()}">Writing</a> / tags</p>
<h1>${title}</h1>
<p class="lead">${plural(posts.length, 'post')}, newest first.</p>
${postList(site, posts)}
${tagCloud(site, tag)}`;

  const markdown = twin(
    title,
    facts([
      ['Tag', tag],
      ['Posts', String(posts.length)],
      ['HTML', absolute(site, pagePath.tag(tag))],
      ['JSON', `${apiBase(site)}/posts?tag=${encodeURIComponent(tag)}`],
    ]),
    section('Posts', postListMarkdown(site, posts)),
    section('Related', bullets([mdLink('All posts', absolute(site, twinPath(pagePath.blog())))])),
  );

  const data = listData(site, [
    ['Writing', pagePath.blog()],
    [title, pagePath.tag(tag)],
  ]);
  return { path: pagePath.tag(tag), title, description: `${plural(posts.length, 'post')} by ${site.profile.name} tagged ${tag}.`, section: 'blog', type: 'website', main, markdown, data };
}

/** Per site: related lists found so far, by slug, as positions in site.posts. */
const relatedLists = new WeakMap<Site, Map<string, number[]>>();

/**
 * `next` is `previous` with some posts replaced by new records of the same
 * slug, date and tags, in the same order (folio dev's one-post edit): the
 * positions are the same, and so is every related list found so far.
 */
export function carryRelated(previous: Site, next: Site): void {
  const found = relatedLists.get(previous);
  if (found && !relatedLists.has(next)) relatedLists.set(next, found);
}

/**
 * Up to three other posts that share the most tags, newest first among
 * equals. Posts sharing two or more tags come from the lists of the tag
 * pairs they share (c tags, c(c-1)/2 pairs), a few dozen posts each; only
 * when fewer than three do are posts sharing one tag walked, newest first,
 * and only until three are found. Counting every post of every tag instead
 * took 1.3 s at 10,000 posts.
 */
function related(site: Site, post: Post): Post[] {
  let found = relatedLists.get(site);
  if (!found) relatedLists.set(site, (found = new Map()));
  // A page built again (for the next model of folio dev, which carries these lists, or by a function) asks again.
  const known = found.get(post.slug);
  if (known) return known.map((i) => site.posts[i]!);
  const { byTag, bySlug } = postIndex(site);
  const pairs = tagPairs(site);
  const self = bySlug.get(post.slug);
  const best: number[] = [];
  const shared: number[] = [];
  const consider = (i: number, count: number) => {
    let at = best.length;
    while (at > 0 && (shared[at - 1]! < count || (shared[at - 1] === count && best[at - 1]! > i))) at--;
    if (at < 3) {
      best.splice(at, 0, i);
      shared.splice(at, 0, count);
      if (best.length > 3) {
        best.pop();
        shared.pop();
      }
    }
  };
  const tags = post.tags;
  const inPairs = new Map<number, number>();
  for (let a = 0; a < tags.length; a++) {
    for (let b = a + 1; b < tags.length; b++) {
      for (const i of pairs.get(pairKey(tags[a]!, tags[b]!)) ?? []) inPairs.set(i, (inPairs.get(i) ?? 0) + 1);
    }
  }
  for (const [i, m] of inPairs) if (i !== self) consider(i, (1 + Math.sqrt(1 + 8 * m)) / 2);
  if (best.length < 3) {
    // Every post sharing two tags is in; the rest share one: merge the tags' lists, newest first.
    const lists = tags.map((t) => byTag.get(t) ?? []);
    const heads = lists.map(() => 0);
    const chosen = new Set(best);
    while (best.length < 3) {
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
  return best.map((i) => site.posts[i]!);
}

export function postPage(site: Site, post: Post): Page {
  const md = (path: string) => absolute(site, twinPath(path));
  const others = related(site, post);
  const main = html`<article class="post" aria-labelledby="post-title">
<header class="post-header">
<p class="crumbs"><a href="${pagePath.blog()}">Writing</a></p>
<h1 id="post-title">${post.title}</h1>
${postMeta(post)}
${tagLinks(site, post.tags)}
</header>
<div class="prose">
${body(post.html, post.content_markdown)}
</div>
</article>
${
  others.length
    ? html`<aside class="related" aria-labelledby="related">
<h2 id="related">Related posts</h2>
<ul>
${others.map((p) => html`<li><a href="${pagePath.post(p.slug)}">${p.title}</a></li>
`)}</ul>
</aside>`
    : ''
}`;

  const markdown = twin(
    post.title,
    facts([
      ['Author', mdLink(site.profile.name, md(pagePath.about()))],
      ['Published', post.date],
      ['Updated', post.updated],
      ['Tags', post.tags.map((t) => mdLink(t, md(pagePath.tag(t)))).join(', ')],
      ['Reading time', plural(post.reading_time_minutes, 'minute')],
      ['Summary', mdText(post.summary)],
      ['HTML', absolute(site, pagePath.post(post.slug))],
      ['JSON', `${apiBase(site)}/posts/${post.slug}`],
    ]),
    post.content_markdown,
    section(
      'Related',
      bullets([
        ...others.map((p) => mdLink(p.title, md(pagePath.post(p.slug)))),
        ...post.tags.map((t) => mdLink(`All posts tagged ${t}`, md(pagePath.tag(t)))),
        mdLink('All posts', md(pagePath.blog())),
      ]),
    ),
  );

  const image = post.image ? { url: post.image.url, alt: post.image.alt } : null;
  return { path: pagePath.post(post.slug), title: post.title, description: post.summary, section: 'blog', type: 'article', main, markdown, data: postData(site, post), image };
}
