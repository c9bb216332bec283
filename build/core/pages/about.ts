// "/about" (D20): the profile, the biography and every contact route.
import { mdImage, mdLink, mdText } from '../markdown-text.js';
import type { Site } from '../model.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { body, html, type Html } from './html.js';
import type { Page } from './page.js';
import { availabilityFact, availabilityHtml, engagementsHtml, engagementsMarkdown } from './availability.js';
import { contactList, contactMarkdown, humanise, photoHtml } from './profile.js';
import { hasItems } from './published.js';
import { aboutData } from './structured-data.js';
import { bullets, facts, section, twin } from './twin.js';

/** Extra front-matter fields (e.g. languages) shown when they are plain text or lists of it. */
function extras(extra: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(extra)) {
    if (typeof value === 'string' || typeof value === 'number') out.push([humanise(key), String(value)]);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
      out.push([humanise(key), value.join(', ')]);
  }
  return out;
}

export function aboutPage(site: Site): Page {
  const { profile } = site;
  const more = extras(profile.extra);
  const factsHtml: Html = html`<dl class="facts">
<div><dt>Location</dt><dd>${profile.location}</dd></div>
${more.map(
  ([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>
`,
)}</dl>`;

  const main = html`${photoHtml(profile)}
<h1>About ${profile.name}</h1>
<p class="lead">${profile.headline}</p>
${factsHtml}
${availabilityHtml(site)}
${engagementsHtml(site)}
<section aria-labelledby="expertise">
<h2 id="expertise">Expertise</h2>
<ul>
${profile.expertise.map(
  (e) => html`<li>${e}</li>
`,
)}</ul>
</section>
<section aria-labelledby="biography" class="prose">
<h2 id="biography">Background</h2>
${body(profile.bio_html, profile.bio_markdown)}
</section>
<section aria-labelledby="contact" class="contact">
<h2 id="contact">Contact</h2>
${contactList(profile)}
</section>`;

  const markdown = twin(
    `About ${profile.name}`,
    facts([
      ['Headline', mdText(profile.headline)],
      ['Location', mdText(profile.location)],
      ...(profile.photo_url ? [['Photo', mdImage(profile.photo_alt ?? '', profile.photo_url)] as [string, string]] : []),
      ...more.map(([k, v]) => [k, mdText(v)] as [string, string]),
      ['Availability', availabilityFact(site)],
      ['HTML', absolute(site, pagePath.about())],
      ['JSON', `${apiBase(site)}/profile`],
    ]),
    section('Expertise', bullets(profile.expertise.map(mdText))),
    section('Engagements', engagementsMarkdown(site)),
    section('Contact', contactMarkdown(profile)),
    section('Background', profile.bio_markdown),
    section(
      'Related',
      bullets([
        ...(hasItems(site, 'services') ? [mdLink('Services', absolute(site, twinPath(pagePath.services())))] : []),
        ...(hasItems(site, 'projects') ? [mdLink('Projects', absolute(site, twinPath(pagePath.projects())))] : []),
        mdLink('Home', absolute(site, twinPath(pagePath.home()))),
      ]),
    ),
  );

  return {
    path: pagePath.about(),
    title: `About ${profile.name}`,
    description: `${profile.headline}. ${profile.location}.`,
    section: 'about',
    type: 'profile',
    main,
    markdown,
    data: aboutData(site),
  };
}
