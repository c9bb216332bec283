// Links that leave the page for an agent are absolute (D53): a feed reader,
// an MCP client or a model reading llms-full.txt has no base URL to resolve
// "/projects/x" against. Pages keep their site-root links.

/** `text` with `siteUrl` inserted at each offset (where a "/…" destination starts). */
export function absoluteAt(text: string, offsets: readonly number[], siteUrl: string): string {
  if (!offsets.length) return text;
  const sorted = [...offsets].sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const at of sorted) {
    out += text.slice(from, at) + siteUrl;
    from = at;
  }
  return out + text.slice(from);
}

// Only attributes of real tags: in our rendered HTML every "<" of text or code is escaped.
const ROOT_ATTRIBUTE = /(<(?:a|img|source)\s[^>]*?\b(?:href|src)=")\/(?!\/)/g;

const FRAGMENT_HREF = /(<a\s[^>]*?\bhref=")#/g;

/**
 * Rendered HTML (ours: double-quoted attributes) with site-root href and src
 * made absolute, and, given the page it comes from, fragment links (a
 * footnote's) made links into that page: elsewhere (a feed) they would
 * resolve against the feed.
 */
export function absoluteHtml(html: string, siteUrl: string, page?: string): string {
  const rooted = html.replace(ROOT_ATTRIBUTE, `$1${siteUrl.replace(/\$/g, '$$$$')}/`);
  return page === undefined ? rooted : rooted.replace(FRAGMENT_HREF, `$1${page.replace(/\$/g, '$$$$')}#`);
}
