// "/services" (D20): every consulting area with an anchor, which is the `url`
// the API gives each service (/services#<id>).
import { mdLink, mdText } from '../markdown-text.js';
import type { Site } from '../model.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { body, html } from './html.js';
import type { Page } from './page.js';
import { nothingYet } from './published.js';
import { servicesData } from './structured-data.js';
import { bullets, facts, twin } from './twin.js';

export function servicesPage(site: Site): Page {
  if (!site.services.length) return emptyServicesPage(site);
  const main = html`<h1>Services</h1>
<p class="lead">The areas ${site.profile.name} consults in, and the engagements each one fits best.</p>
<nav class="toc" aria-label="Services on this page">
<ul>
${site.services.map((s) => html`<li><a href="#${s.id}">${s.title}</a></li>
`)}</ul>
</nav>
${site.services.map(
  (s) => html`<section class="service" id="${s.id}" aria-labelledby="${s.id}-title">
<h2 id="${s.id}-title">${s.title}</h2>
<p class="lead">${s.summary}</p>
<div class="prose">
${body(s.body_html, s.body_markdown)}
</div>
<h3>A good fit when</h3>
<ul class="fit">
${s.best_fit.map((f) => html`<li>${f}</li>
`)}</ul>
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
          ['URL', `${absolute(site, pagePath.services())}#${s.id}`],
          ['Summary', mdText(s.summary)],
        ]),
        s.body_markdown.trim(),
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
  return { path: pagePath.services(), title: 'Services', description: `Services of ${site.profile.name}: ${nothingYet('services').toLowerCase()}`, section: 'services', type: 'website', main, markdown };
}
