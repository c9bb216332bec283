// "/projects" and "/projects/{id}" (D20): grouped by status, live first.
import { mdLink, mdText } from '../markdown-text.js';
import { PROJECT_STATUSES, type Project } from '../model.js';
import type { SiteModel } from '../site-model.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { body, html } from './html.js';
import type { Page } from './page.js';
import {
  externalLink,
  periodHtml,
  projectCard,
  projectListMarkdown,
  projectPeriod,
  STATUS_LABEL,
  STATUS_MEANING,
  statusBadge,
  tagLinks,
} from './parts.js';
import { nothingYet } from './published.js';
import { listData, projectData } from './structured-data.js';
import { bullets, facts, section, twin } from './twin.js';
import { plural } from './html.js';

const ORDER = ['live', 'delivered', 'sunset'] as const satisfies readonly (typeof PROJECT_STATUSES)[number][];

/** What the page lists, in the statuses it has (D59): no product that is not there, no grouping of one group. */
function lead(name: string, statuses: readonly (typeof ORDER)[number][]): string {
  const has = (status: (typeof ORDER)[number]) => statuses.includes(status);
  const products =
    has('live') || has('sunset') ? `products ${name} ${has('live') ? (has('sunset') ? 'runs or ran' : 'runs') : 'ran'}` : null;
  const work = has('delivered') ? `client work ${products ? '' : `${name} `}delivered` : null;
  const what = [products, work].filter(Boolean).join(' and ');
  return `${what[0]!.toUpperCase()}${what.slice(1)}${statuses.length > 1 ? ', grouped by status' : ''}.`;
}

export function projectsPage(model: SiteModel): Page {
  const { site } = model;
  const groups = ORDER.map((status) => ({ status, projects: site.projects.filter((p) => p.status === status) })).filter(
    (g) => g.projects.length,
  );
  const main = html`<h1>Projects</h1>
<p class="lead">${
    site.projects.length
      ? lead(
          site.profile.name,
          groups.map((g) => g.status),
        )
      : nothingYet('projects')
  }</p>
${groups.map(
  (g) => html`<section aria-labelledby="status-${g.status}">
<h2 id="status-${g.status}">${STATUS_LABEL[g.status]} <span class="count">${g.projects.length}</span></h2>
<p class="muted">${STATUS_MEANING[g.status]}</p>
<ul class="cards">
${g.projects.map(
  (p) => html`<li>${projectCard(model, p)}</li>
`,
)}</ul>
</section>
`,
)}`;

  const markdown = twin(
    'Projects',
    site.projects.length ? null : nothingYet('projects'),
    facts([
      ['Projects', String(site.projects.length)],
      ['Statuses', 'live, delivered, sunset'],
      ['HTML', absolute(site, pagePath.projects())],
      ['JSON', `${apiBase(site)}/projects`],
    ]),
    ...groups.map((g) => section(STATUS_LABEL[g.status], mdText(STATUS_MEANING[g.status]), projectListMarkdown(site, g.projects))),
  );

  return {
    path: pagePath.projects(),
    title: 'Projects',
    description: site.projects.length
      ? `${plural(site.projects.length, 'project')} by ${site.profile.name}: ${groups.map((g) => `${g.projects.length} ${g.status}`).join(', ')}.`
      : `Projects of ${site.profile.name}: ${nothingYet('projects').toLowerCase()}`,
    section: 'projects',
    type: 'website',
    main,
    markdown,
    data: listData(site, [['Projects', pagePath.projects()]]),
  };
}

export function projectPage(model: SiteModel, project: Project): Page {
  const { site } = model;
  const md = (path: string) => absolute(site, twinPath(path));
  const main = html`<article class="project" aria-labelledby="project-title">
<header class="post-header">
<p class="crumbs"><a href="${pagePath.projects()}">Projects</a></p>
<h1 id="project-title">${project.title}</h1>
<p class="lead">${project.summary}</p>
<dl class="facts">
<div><dt>Status</dt><dd>${statusBadge(project.status)} <span class="muted">${STATUS_MEANING[project.status]}</span></dd></div>
${project.started ? html`<div><dt>When</dt><dd>${periodHtml(project)}</dd></div>` : ''}
${project.url ? html`<div><dt>Website</dt><dd>${externalLink(project.url, project.url.replace(/^https?:\/\//, ''))}</dd></div>` : ''}
</dl>
${tagLinks(model, project.tags)}
</header>
<div class="prose">
${body(project.html, project.body_markdown)}
</div>
</article>
<p class="back"><a href="${pagePath.projects()}">All projects</a></p>`;

  const markdown = twin(
    project.title,
    facts([
      ['Status', `${project.status} (${STATUS_MEANING[project.status]})`],
      ['Period', projectPeriod(project)],
      ['Website', project.url],
      // A tag links its twin only where a published post carries it, as on the page.
      ['Tags', project.tags.map((t) => (site.tags.some((k) => k.tag === t) ? mdLink(t, md(pagePath.tag(t))) : mdText(t))).join(', ')],
      ['Summary', mdText(project.summary)],
      ['HTML', absolute(site, pagePath.project(project.id))],
      ['JSON', `${apiBase(site)}/projects/${project.id}`],
    ]),
    project.body_markdown,
    section(
      'Related',
      bullets([mdLink('All projects', md(pagePath.projects())), mdLink(`Author: ${site.profile.name}`, md(pagePath.about()))]),
    ),
  );

  return {
    path: pagePath.project(project.id),
    title: project.title,
    description: project.summary,
    section: 'projects',
    type: 'article',
    main,
    markdown,
    data: projectData(site, project),
  };
}
