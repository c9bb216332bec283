// The 404 page (D23), in HTML or, when the request asks for it, Markdown.
// Never a 200: an unknown address must not look like a page.
import { mdLink } from '../markdown-text.js';
import type { Site } from '../model.js';
import { absolute, pagePath, twinPath } from '../urls.js';
import { html } from './html.js';
import { layout } from './layout.js';
import { hasItems } from './published.js';
import { bullets, twin } from './twin.js';

const TITLE = 'Page not found';

function suggestions(site: Site) {
  return [
    { label: 'Home', path: pagePath.home(), section: 'home' as const },
    { label: 'Writing', path: pagePath.blog(), section: 'blog' as const },
    { label: 'Projects', path: pagePath.projects(), section: 'projects' as const },
    { label: 'Services', path: pagePath.services(), section: 'services' as const },
    { label: `About ${site.profile.name}`, path: pagePath.about(), section: 'about' as const },
    { label: 'Developers: API and MCP', path: pagePath.developers(), section: 'developers' as const },
  ].filter((s) => hasItems(site, s.section));
}

// The request's path is not echoed: the same bytes serve as dist/404.html for
// every unknown address on a static host, and nothing the caller sends is reflected.
export function notFoundHtml(site: Site): string {
  const main = html`<h1>${TITLE}</h1>
<p class="lead">There is no page at this address. It may have moved, or the address may be mistyped.</p>
<p>Try one of these instead:</p>
<ul>
${suggestions(site).map(
  (s) => html`<li><a href="${s.path}">${s.label}</a></li>
`,
)}</ul>
<p class="muted">Scripts and agents: the <a href="${pagePath.developers()}">developer page</a> lists every address; API errors are always JSON.</p>`;
  return layout({ site, path: null, title: TITLE, description: 'There is no page at this address.', section: null, type: 'website', main });
}

export function notFoundMarkdown(site: Site): string {
  return twin(
    TITLE,
    'There is no page at this address. It may have moved, or the address may be mistyped.',
    '## Try instead',
    bullets(suggestions(site).map((s) => mdLink(s.label, absolute(site, twinPath(s.path))))),
    `Every page has a Markdown twin at its path plus \`.md\`. The index for agents is ${site.config.site_url}/llms.txt.`,
  );
}
