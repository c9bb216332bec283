// "/services" and "/services/{id}" (D20, D47): the list keeps an anchor per
// service (so links to /services#<id> still land), and each service has its
// own page, which is the `url` the API gives it.
import { mdLink, mdText } from '../markdown-text.js';
import type { Service, Site } from '../model.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { body, html } from './html.js';
import type { Page } from './page.js';
import { nothingYet } from './published.js';
import { serviceData, servicesData } from './structured-data.js';
import { bullets, facts, section, twin } from './twin.js';

/** The list under a heading one level below where it stands: h3 in a service's section of /services, h2 on its own page. */
function fitList(service: Service, level: 2 | 3) {
  return html`${level === 2 ? html`<h2>A good fit when</h2>` : html`<h3>A good fit when</h3>`}
<ul class="fit">
${service.best_fit.map(
  (f) => html`<li>${f}</li>
`,
)}</ul>`;
}

export function servicesPage(site: Site): Page {
  if (!site.services.length) return emptyServicesPage(site);
  const main = html`<h1>Services</h1>
<p class="lead">The areas ${site.profile.name} consults in, and the engagements each one fits best.</p>
<nav class="toc" aria-label="Services on this page">
<ul>
${site.services.map(
  (s) => html`<li><a href="#${s.id}">${s.title}</a></li>
`,
)}</ul>
</nav>
${site.services.map(
  (s) => html`<section class="service" id="${s.id}" aria-labelledby="${s.id}-title">
<h2 id="${s.id}-title"><a href="${pagePath.service(s.id)}">${s.title}</a></h2>
<p class="lead">${s.summary}</p>
${fitList(s, 3)}
<p><a href="${pagePath.service(s.id)}">More about ${s.title}</a></p>
</section>
`,
)}
<p class="cta">Not sure which one fits? <a href="${pagePath.about()}#contact">Get in touch</a> and describe the problem.</p>`;

  const markdown = twin(
    'Services',
    facts([
      ['Services', String(site.services.length)],
      ['HTML', absolute(site, pagePath.services())],
      ['JSON', `${apiBase(site)}/services`],
      ['Contact', mdLink('profile and contact routes', absolute(site, twinPath(pagePath.about())))],
    ]),
    ...site.services.map((s) =>
      [
        `## ${mdText(s.title)}`,
        facts([
          ['Id', s.id],
          ['Summary', mdText(s.summary)],
          ['Markdown', absolute(site, twinPath(pagePath.service(s.id)))],
          ['URL', absolute(site, pagePath.service(s.id))],
        ]),
        `### A good fit when\n\n${bullets(s.best_fit.map(mdText))}`,
      ].join('\n\n'),
    ),
  );

  return {
    path: pagePath.services(),
    title: 'Services',
    description: `Consulting by ${site.profile.name}: ${site.services.map((s) => s.title).join('; ')}.`,
    section: 'services',
    type: 'website',
    main,
    markdown,
    data: servicesData(site),
  };
}

/** No services yet: the page says so plainly and still shows the way to get in touch. */
function emptyServicesPage(site: Site): Page {
  const main = html`<h1>Services</h1>
<p class="lead">${nothingYet('services')}</p>
<p class="cta"><a href="${pagePath.about()}#contact">Get in touch</a> to ask about work.</p>`;
  const markdown = twin(
    'Services',
    nothingYet('services'),
    facts([
      ['Services', '0'],
      ['HTML', absolute(site, pagePath.services())],
      ['JSON', `${apiBase(site)}/services`],
      ['Contact', mdLink('profile and contact routes', absolute(site, twinPath(pagePath.about())))],
    ]),
  );
  return {
    path: pagePath.services(),
    title: 'Services',
    description: `Services of ${site.profile.name}: ${nothingYet('services').toLowerCase()}`,
    section: 'services',
    type: 'website',
    main,
    markdown,
  };
}

export function servicePage(site: Site, service: Service): Page {
  const md = (path: string) => absolute(site, twinPath(path));
  const main = html`<article class="service-page" aria-labelledby="service-title">
<header class="post-header">
<p class="crumbs"><a href="${pagePath.services()}">Services</a></p>
<h1 id="service-title">${service.title}</h1>
<p class="lead">${service.summary}</p>
</header>
<div class="prose">
${body(service.body_html, service.body_markdown)}
</div>
${fitList(service, 2)}
</article>
<p class="cta">Does this fit your problem? <a href="${pagePath.about()}#contact">Get in touch</a>.</p>
<p class="back"><a href="${pagePath.services()}">All services</a></p>`;

  const markdown = twin(
    service.title,
    facts([
      ['Id', service.id],
      ['Summary', mdText(service.summary)],
      ['HTML', absolute(site, pagePath.service(service.id))],
      ['JSON', `${apiBase(site)}/services/${service.id}`],
    ]),
    service.body_markdown,
    `## A good fit when\n\n${bullets(service.best_fit.map(mdText))}`,
    section(
      'Related',
      bullets([mdLink('All services', md(pagePath.services())), mdLink(`Contact: ${site.profile.name}`, md(pagePath.about()))]),
    ),
  );

  return {
    path: pagePath.service(service.id),
    title: service.title,
    description: service.summary,
    section: 'services',
    type: 'article',
    main,
    markdown,
    data: serviceData(site, service),
  };
}
