// The document around every page: head, skip link, header with navigation,
// main, footer (D20). Landmarks and one h1 per page; no script anywhere (D24).
import { clockYear } from '../clock.js';
import { isCardImage } from '../media-types.js';
import type { Site } from '../model.js';
import { absolute, pagePath, twinPath } from '../urls.js';
import { iconLinks } from './favicon.js';
import { META_CSP } from './headers.js';
import { html, trusted, type Html } from './html.js';
import type { Page, Section } from './page.js';
import { hasTheme, THEME_PATH } from '../theme.js';
import { hasItems } from './published.js';
import { jsonLdText, listData, type JsonLd } from './structured-data.js';

export const STYLESHEET_PATH = '/assets/site.css';

const NAV: { section: Exclude<Section, 'home' | null>; label: string; path: string }[] = [
  { section: 'about', label: 'About', path: pagePath.about() },
  { section: 'services', label: 'Services', path: pagePath.services() },
  { section: 'blog', label: 'Writing', path: pagePath.blog() },
  { section: 'projects', label: 'Projects', path: pagePath.projects() },
  { section: 'developers', label: 'Developers', path: pagePath.developers() },
];

interface Shell {
  site: Site;
  /** Canonical path, or null for the not-found page (which has no canonical URL). */
  path: string | null;
  title: string;
  description: string;
  section: Section;
  type: Page['type'];
  main: Html;
  data?: JsonLd;
  image?: Page['image'];
}

/**
 * The social-card image (D50): the page's own, else site.yaml's social_image,
 * else the profile photo. Each is a raster image (a post's is its first
 * raster image, social_image is checked), but the photo may be an SVG, as
 * `folio init`'s placeholder is, which no link preview shows: then none.
 */
export function socialImage(site: Site, own?: Page['image']): { url: string; alt: string } | null {
  if (own) return own;
  if (site.config.social_image) return site.config.social_image;
  const { photo_url: url, photo_alt: alt } = site.profile;
  return url && isCardImage(url) ? { url, alt: alt ?? site.profile.name } : null;
}

function documentTitle(site: Site, title: string, path: string | null): string {
  return path === pagePath.home() ? site.config.title : `${title} — ${site.profile.name}`;
}

export function layout(shell: Shell): string {
  const { site, path } = shell;
  const fullTitle = documentTitle(site, shell.title, path);
  const twin = path === null ? null : twinPath(path);
  const year = clockYear(site);
  const image = socialImage(site, shell.image);
  const data = shell.data ?? (path === null ? null : listData(site, path === pagePath.home() ? [] : [[shell.title, path]]));
  const license = site.config.license;
  const doc = html`<!doctype html>
<html lang="${site.config.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${META_CSP}">
<title>${fullTitle}</title>
<meta name="description" content="${shell.description}">
<meta name="color-scheme" content="light dark">
${path === null ? html`<meta name="robots" content="noindex">` : html`<link rel="canonical" href="${absolute(site, path)}">`}
${twin ? html`<link rel="alternate" type="text/markdown" href="${twin}" title="This page in Markdown">` : ''}
<link rel="alternate" type="application/atom+xml" href="/feed.xml" title="${site.config.title}">
<link rel="stylesheet" href="${STYLESHEET_PATH}">${
    hasTheme(site.config)
      ? html`
<link rel="stylesheet" href="${THEME_PATH}">`
      : ''
  }
${iconLinks(site)}
<meta property="og:title" content="${shell.title}">
<meta property="og:description" content="${shell.description}">
<meta property="og:type" content="${shell.type}">
<meta property="og:site_name" content="${site.config.title}">
${path === null ? '' : html`<meta property="og:url" content="${absolute(site, path)}">`}
${
  image
    ? html`<meta property="og:image" content="${image.url}">
<meta property="og:image:alt" content="${image.alt}">
`
    : ''
}<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">
${
  data
    ? html`<script type="application/ld+json">${trusted(jsonLdText(data))}</script>
`
    : ''
}</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<div class="wrap header-inner">
<a class="brand" href="${pagePath.home()}"${shell.section === 'home' ? html` aria-current="page"` : ''}>${site.profile.name}</a>
<nav aria-label="Main">
<ul>
${NAV.filter((item) => hasItems(site, item.section)).map(
  (item) => html`<li><a href="${item.path}"${item.section === shell.section ? html` aria-current="page"` : ''}>${item.label}</a></li>
`,
)}</ul>
</nav>
</div>
</header>
<main id="main" tabindex="-1">
<div class="wrap">
${shell.main}
</div>
</main>
<footer class="site-footer">
<div class="wrap">
<p>© ${year} ${site.profile.name}.${site.config.statements.footer ? ` ${site.config.statements.footer}` : ''}</p>
${
  license
    ? html`<p class="license">The writing is licensed under <a rel="license" href="${license.url}">${license.name}</a>.</p>
`
    : ''
}<ul class="footer-links">
${twin ? html`<li><a href="${twin}" type="text/markdown">This page in Markdown</a></li>` : ''}
<li><a href="/feed.xml">Atom feed</a></li>
<li><a href="/llms.txt">llms.txt</a></li>
<li><a href="${pagePath.developers()}">API and MCP</a></li>
</ul>
</div>
</footer>
</body>
</html>
`;
  return doc.value;
}

export function renderPage(site: Site, page: Page): string {
  return layout({
    site,
    path: page.path,
    title: page.title,
    description: page.description,
    section: page.section,
    type: page.type,
    main: page.main,
    data: page.data,
    image: page.image,
  });
}
