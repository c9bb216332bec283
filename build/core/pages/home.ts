// "/" (D20): who this is, whether they are available, and the way into the
// writing, services and projects. A section with nothing in it is left out,
// and so is every button or link to it (D59).
import { mdImage, mdLink, mdText } from '../markdown-text.js';
import type { SiteModel } from '../site-model.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { html, plural } from './html.js';
import type { Page } from './page.js';
import { postList, postListMarkdown, projectCard, projectListMarkdown } from './parts.js';
import { availabilityFact, availabilityHtml } from './availability.js';
import { photoHtml } from './profile.js';
import { hasItems } from './published.js';
import { homeData } from './structured-data.js';
import { facts, section, twin } from './twin.js';

const LATEST = 5;
const FEATURED_PROJECTS = 4;

/** "All 12 posts", or "1 post" where "all" would be odd. */
function allOf(count: number, one: string): string {
  return count === 1 ? plural(count, one) : `All ${plural(count, one)}`;
}

export function homePage(model: SiteModel): Page {
  const { site } = model;
  const { profile } = site;
  const latest = site.posts.slice(0, LATEST);
  const featured = site.projects.filter((p) => p.status === 'live').slice(0, FEATURED_PROJECTS);
  const projects = featured.length ? featured : site.projects.slice(0, FEATURED_PROJECTS);
  const md = (path: string) => absolute(site, twinPath(path));

  const main = html`<section class="hero" aria-labelledby="page-title">
${photoHtml(profile)}
<h1 id="page-title">${profile.name}</h1>
<p class="lead">${profile.headline}</p>
<p class="location">${profile.location}</p>
${availabilityHtml(site)}
<p class="actions"><a class="button" href="${pagePath.about()}#contact">Get in touch</a>${hasItems(site, 'services') ? html` <a class="button button-quiet" href="${pagePath.services()}">See services</a>` : ''}</p>
</section>
${
  latest.length
    ? html`
<section aria-labelledby="latest">
<div class="section-head"><h2 id="latest">Latest writing</h2><a href="${pagePath.blog()}">${allOf(site.posts.length, 'post')}</a></div>
${postList(model, latest, 3)}
</section>
`
    : ''
}${
    site.services.length
      ? html`
<section aria-labelledby="services">
<div class="section-head"><h2 id="services">Services</h2><a href="${pagePath.services()}">Details and fit</a></div>
<ul class="cards">
${site.services.map(
  (s) => html`<li class="card"><h3><a href="${pagePath.service(s.id)}">${s.title}</a></h3><p>${s.summary}</p></li>
`,
)}</ul>
</section>
`
      : ''
  }${
    projects.length
      ? html`
<section aria-labelledby="projects">
<div class="section-head"><h2 id="projects">Projects</h2><a href="${pagePath.projects()}">${allOf(site.projects.length, 'project')}</a></div>
<ul class="cards">
${projects.map(
  (p) => html`<li>${projectCard(model, p)}</li>
`,
)}</ul>
</section>
`
      : ''
  }
<section class="for-agents" aria-labelledby="agents">
<h2 id="agents">For scripts and agents</h2>
<p>Everything here is also available as Markdown (add <code>.md</code> to any address, or send <code>Accept: text/markdown</code>), as a read-only <a href="${pagePath.developers()}">JSON API and MCP endpoint</a>, and as <a href="/llms.txt">llms.txt</a>.</p>
</section>`;

  const markdown = twin(
    site.config.title,
    mdText(site.config.description),
    facts([
      ['Name', mdText(profile.name)],
      ['Headline', mdText(profile.headline)],
      ['Location', mdText(profile.location)],
      ...(profile.photo_url ? [['Photo', mdImage(profile.photo_alt ?? '', profile.photo_url)] as [string, string]] : []),
      ['Availability', availabilityFact(site)],
      ['Contact', `${mdLink('profile and every contact route', md(pagePath.about()))}`],
      ['HTML', absolute(site, pagePath.home())],
      ['API', apiBase(site)],
      ['MCP', `${site.config.site_url}/mcp`],
      ['llms.txt', `${site.config.site_url}/llms.txt`],
    ]),
    section(
      'Pages',
      [
        `- ${mdLink('About and contact', md(pagePath.about()))}`,
        hasItems(site, 'services') && `- ${mdLink('Services', md(pagePath.services()))}`,
        hasItems(site, 'blog') && `- ${mdLink('Writing', md(pagePath.blog()))}`,
        hasItems(site, 'projects') && `- ${mdLink('Projects', md(pagePath.projects()))}`,
        `- ${mdLink('Developers: API, MCP and versioning', md(pagePath.developers()))}`,
      ]
        .filter(Boolean)
        .join('\n'),
    ),
    section('Latest writing', postListMarkdown(model, latest)),
    section('Services', site.services.map((s) => `- ${mdLink(s.title, md(pagePath.service(s.id)))}: ${mdText(s.summary)}`).join('\n')),
    section('Projects', projectListMarkdown(site, projects)),
  );

  return {
    path: pagePath.home(),
    title: profile.name,
    description: site.config.description,
    section: 'home',
    type: 'website',
    main,
    markdown,
    data: homeData(site),
  };
}
