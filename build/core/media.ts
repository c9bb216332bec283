// Image addresses for documents read away from the site (D44): a feed reader
// resolves a relative src against nothing useful, so the site-relative
// /media/ addresses of rendered HTML become absolute.

export function absoluteImages(html: string, siteUrl: string): string {
  if (!html.includes('<img ')) return html;
  return html.replace(/<img [^>]*>/g, (tag) => tag.replace(/(src="|srcset="|, )\/(?!\/)/g, `$1${siteUrl}/`));
}
