// Eleventy 3.1.7 making the site folio makes from the same content (D57: equal
// work), not only its HTML pages: eleventy.config.js's pages, and for each
// post its Markdown twin and its JSON record, the post list and each tag's
// list as JSON pages of 20, each tag's HTML page and twin, the feed with every
// post's HTML, the sitemap and llms-full.txt. The bench runs Pagefind over the
// HTML after it, as an Eleventy site gets its search index. Left out: what
// folio writes besides (its functions' files, the OpenAPI and MCP documents,
// the host files) and its checks of links and front matter.
//
// The extra files are written once Eleventy is done (`eleventy.after`), from
// the collection Eleventy built, its items' front matter, raw Markdown and
// rendered HTML: at 10,000 posts that took 11.6–12.3 s, against 15.1 s for
// the same files as virtual templates paginated one item a page, the way the
// Eleventy docs make pages from data; and with synchronous writes, which took
// 9.6-9.8 s into fresh folders against 10.8-11.7 s for `fs/promises` writes
// all in flight. The peer gets the quicker way each time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pages from './eleventy.config.js';

const SITE = 'https://bench.example';
const PAGE = 20;

const slugOf = (item) => item.fileSlug;
const day = (item) => item.date.toISOString().slice(0, 10);
const words = (text) => text.split(/\s+/).filter(Boolean).length;
const xml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The first 280 characters of the body's text, as a list shows a post. */
function summary(item) {
  const text = item.rawInput
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 280 ? `${text.slice(0, 279)}…` : text;
}

function listed(item) {
  const slug = slugOf(item);
  return {
    slug,
    title: item.data.title,
    summary: summary(item),
    date: day(item),
    updated: null,
    tags: item.data.tags ?? [],
    reading_time_minutes: Math.max(1, Math.round(words(item.rawInput) / 200)),
    url: `${SITE}/blog/${slug}`,
    markdown_url: `${SITE}/blog/${slug}.md`,
    api_url: `${SITE}/api/v1/posts/${slug}`,
  };
}

function twin(post, body) {
  const tags = post.tags.map((t) => `[${t}](${SITE}/blog/tags/${t}.md)`).join(', ');
  return `# ${post.title}\n\n- Published: ${post.date}\n- Tags: ${tags}\n- Reading time: ${post.reading_time_minutes} minute\n- Summary: ${post.summary}\n\n${body}\n`;
}

/** JSON pages of 20 items, at `api/v1/posts<query>` with `offset` past the first. */
function listPages(put, posts, query) {
  for (let offset = 0; offset < posts.length; offset += PAGE) {
    const data = posts.slice(offset, offset + PAGE).map((p) => p.listed);
    const next = offset + PAGE < posts.length ? `${SITE}/api/v1/posts?${query ? `${query}&` : ''}offset=${offset + PAGE}` : null;
    const at = [query, offset ? `offset=${offset}` : ''].filter(Boolean).join('&');
    const body = { data, meta: { total: posts.length, limit: PAGE, offset }, links: { next } };
    put(`api/v1/posts${at ? `@${at}` : ''}.json`, JSON.stringify(body, null, 2));
  }
}

function writeSite(output, items) {
  const made = new Set();
  const put = (path, text) => {
    const file = join(output, path);
    const dir = dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, text);
  };
  const posts = items.map((item) => {
    const body = item.rawInput.trim();
    return { item, body, listed: listed(item) };
  });
  const tags = new Map();
  for (const post of posts) {
    const { slug } = post.listed;
    put(`blog/${slug}.md`, twin(post.listed, post.body));
    put(`api/v1/posts/${slug}.json`, JSON.stringify({ ...post.listed, content_markdown: post.body }, null, 2));
    for (const tag of post.listed.tags) {
      if (!tags.has(tag)) tags.set(tag, []);
      tags.get(tag).push(post);
    }
  }
  listPages(put, posts, '');
  for (const [tag, tagged] of tags) {
    listPages(put, tagged, `tag=${tag}`);
    const links = tagged.map(({ listed: p }) => `<li><a href="/blog/${p.slug}">${xml(p.title)}</a> <time>${p.date}</time></li>`);
    put(
      `blog/tags/${tag}.html`,
      `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Posts tagged ${tag}</title></head>\n<body><main><h1>Posts tagged ${tag}</h1><ul>\n${links.join('\n')}\n</ul></main></body>\n</html>\n`,
    );
    put(
      `blog/tags/${tag}.md`,
      `# Posts tagged ${tag}\n\n${tagged.map(({ listed: p }) => `- [${p.title}](${p.markdown_url}) (${p.date})`).join('\n')}\n`,
    );
  }
  const entries = posts.map(
    ({ item, listed: p }) =>
      `  <entry>\n    <id>${p.url}</id>\n    <title>${xml(p.title)}</title>\n    <updated>${p.date}T00:00:00Z</updated>\n    <link href="${p.url}"/>\n    <content type="html">${xml(item.content)}</content>\n  </entry>`,
  );
  put(
    'feed.xml',
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n  <id>${SITE}/</id>\n  <title>Bench Consulting</title>\n${entries.join('\n')}\n</feed>\n`,
  );
  const urls = [...posts.map(({ listed: p }) => p.url), ...[...tags.keys()].map((t) => `${SITE}/blog/tags/${t}`)];
  put(
    'sitemap.xml',
    `<?xml version="1.0" encoding="utf-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `  <url><loc>${u}</loc></url>`).join('\n')}\n</urlset>\n`,
  );
  put('llms-full.txt', posts.map((p) => twin(p.listed, p.body)).join('\n\n'));
}

export default function (eleventyConfig) {
  const options = pages(eleventyConfig);
  let posts = [];
  eleventyConfig.addCollection('posts', (api) => {
    posts = api
      .getAll()
      .filter((item) => item.inputPath.includes('/posts/'))
      .sort((a, b) => b.date - a.date || (slugOf(a) < slugOf(b) ? -1 : 1));
    return posts;
  });
  eleventyConfig.on('eleventy.after', ({ directories }) => writeSite(directories.output, posts));
  return options;
}
