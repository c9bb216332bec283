// "/blog", "/blog/tags/{tag}" and "/blog/{slug}" (D20).
import { mdLink, mdText } from '../markdown-text.js';
import type { Post, Site } from '../model.js';
import type { SiteModel } from '../site-model.js';
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
  (
    t,
  ) => html`<li><a href="${pagePath.tag(t.tag)}"${t.tag === current ? html` aria-current="page"` : ''}>${t.tag} <span class="count">${t.count}</span></a></li>
`,
)}</ul>
</nav>`;
}

/** "Field notes by Ada on postgres, kafka and more.": the six largest tags; "and more" only when there are more. */
function blogDescription(site: Site): string {
  if (!site.posts.length) return `${site.profile.name}'s writing: ${nothingYet('posts').toLowerCase()}`;
  const top = site.tags
    .slice()
    .sort((a, b) => b.count - a.count)
    .map((t) => t.tag);
  const topics = top.length > 6 ? `${top.slice(0, 6).join(', ')} and more` : listText(top);
  return `${writingLabel(site)} by ${site.profile.name}${topics ? ` on ${topics}` : ''}.`;
}

export function blogPage(model: SiteModel): Page {
  const { site } = model;
  const md = (path: string) => absolute(site, twinPath(path));
  const main = html`<h1>Writing</h1>
${
  site.posts.length
    ? html`<p class="lead">${writingLabel(site)} by ${site.profile.name}: ${plural(site.posts.length, 'post')}, newest first.</p>
${tagCloud(site, null)}
${postList(model, site.posts)}`
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
    section('Posts', postListMarkdown(model, site.posts)),
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

/** The page of a tag, given its posts (SiteModel.tagged). */
export function tagPage(model: SiteModel, tag: string, posts: Post[]): Page {
  const { site } = model;
  const title = `Posts tagged “${tag}”`;
  const main = html`<p class="crumbs"><a href="${pagePath.blog()}">Writing</a> / tags</p>
<h1>${title}</h1>
<p class="lead">${plural(posts.length, 'post')}, newest first.</p>
${postList(model, posts)}
${tagCloud(site, tag)}`;

  const markdown = twin(
    title,
    facts([
      ['Tag', tag],
      ['Posts', String(posts.length)],
      ['HTML', absolute(site, pagePath.tag(tag))],
      ['JSON', `${apiBase(site)}/posts?tag=${encodeURIComponent(tag)}`],
    ]),
    section('Posts', postListMarkdown(model, posts)),
    section('Related', bullets([mdLink('All posts', absolute(site, twinPath(pagePath.blog())))])),
  );

  const data = listData(site, [
    ['Writing', pagePath.blog()],
    [title, pagePath.tag(tag)],
  ]);
  return {
    path: pagePath.tag(tag),
    title,
    description: `${plural(posts.length, 'post')} by ${site.profile.name} tagged ${tag}.`,
    section: 'blog',
    type: 'website',
    main,
    markdown,
    data,
  };
}

/** A post's page, given its related posts (SiteModel.related). */
export function postPage(model: SiteModel, post: Post, others: Post[]): Page {
  const { site } = model;
  const md = (path: string) => absolute(site, twinPath(path));
  const main = html`<article class="post" aria-labelledby="post-title">
<header class="post-header">
<p class="crumbs"><a href="${pagePath.blog()}">Writing</a></p>
<h1 id="post-title">${post.title}</h1>
${postMeta(post)}
${tagLinks(model, post.tags)}
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
${others.map(
  (p) => html`<li><a href="${pagePath.post(p.slug)}">${p.title}</a></li>
`,
)}</ul>
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
  return {
    path: pagePath.post(post.slug),
    title: post.title,
    description: post.summary,
    section: 'blog',
    type: 'article',
    main,
    markdown,
    data: postData(site, post),
    image,
  };
}
