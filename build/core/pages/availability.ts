// Availability on the home and about pages and in their twins (D60): the
// status and note, then the terms as short facts, and on the about page the
// engagements per service. Plain words from the same data as the API.
import { earliestStart } from '../availability.js';
import { asSentence, mdLink, mdText } from '../markdown-text.js';
import type { Site } from '../model.js';
import { absolute, pagePath, twinPath } from '../urls.js';
import { html, humanDate, safeHref, type Html } from './html.js';
import { availabilityLabel } from './profile.js';

function number(n: number): string {
  return String(n);
}

/** The terms, as label and plain text, leaving out what the profile does not state. */
function terms(site: Site): [string, string][] {
  const a = site.profile.availability;
  const start = earliestStart(site);
  const out: [string, string][] = [];
  if (start) out.push(['Earliest start', humanDate(start)]);
  if (a.days_per_week !== null) out.push(['Days a week', number(a.days_per_week)]);
  if (a.lead_time_weeks !== null) out.push(['Notice', a.lead_time_weeks === 1 ? '1 week' : `${number(a.lead_time_weeks)} weeks`]);
  return out;
}

export function availabilityHtml(site: Site): Html {
  const a = site.profile.availability;
  const status = a.status.toLowerCase();
  const list = terms(site);
  const booking = a.booking_url ? safeHref(a.booking_url) : null;
  return html`<div class="availability availability-${status.replace(/[^a-z0-9-]/g, '')}">
<p><strong>${availabilityLabel(status)}.</strong> ${a.note}</p>
${
  list.length || booking
    ? html`<ul class="terms">
${list.map(
  ([label, value]) => html`<li>${label}: ${value}</li>
`,
)}${
        booking
          ? html`<li><a href="${booking}">Book a call</a></li>
`
          : ''
      }</ul>
`
    : ''
}</div>`;
}

/** The Availability fact of a twin: the label, the note and the terms on one line. */
export function availabilityFact(site: Site): string {
  const a = site.profile.availability;
  const parts = [
    `${availabilityLabel(a.status)}.`,
    a.note ? mdText(asSentence(a.note)) : '',
    ...terms(site).map(([label, value]) => `${label}: ${mdText(value)}.`),
  ];
  if (a.booking_url) parts.push(`Book: <${a.booking_url}>.`);
  return parts.filter(Boolean).join(' ');
}

function serviceTitle(site: Site, id: string): string {
  return site.services.find((s) => s.id === id)?.title ?? id;
}

/** The engagements on offer, on the about page; nothing when the profile names none. */
export function engagementsHtml(site: Site): Html | '' {
  const list = site.profile.availability.engagements;
  if (!list.length) return '';
  return html`<section aria-labelledby="engagements">
<h2 id="engagements">Engagements</h2>
<table>
<thead><tr><th scope="col">Service</th><th scope="col">Formats</th><th scope="col">Rate</th></tr></thead>
<tbody>
${list.map(
  (
    e,
  ) => html`<tr><td><a href="${pagePath.service(e.service)}">${serviceTitle(site, e.service)}</a></td><td>${e.formats.join(', ')}</td><td>${e.rate_band ?? 'On request'}</td></tr>
`,
)}</tbody>
</table>
</section>`;
}

export function engagementsMarkdown(site: Site): string | null {
  const list = site.profile.availability.engagements;
  if (!list.length) return null;
  return list
    .map(
      (e) =>
        `- ${mdLink(serviceTitle(site, e.service), absolute(site, twinPath(pagePath.service(e.service))))}: ${mdText(e.formats.join(', '))}; ${mdText(e.rate_band ?? 'rate on request')}`,
    )
    .join('\n');
}
