// Availability as data (D60): what the profile states, the state it implies
// on the build's day, and whether a service fits a month. The API's
// getAvailability and the MCP tool site_check_availability both answer
// from here, so they cannot disagree.
import { clockDay, clockMonth } from './clock.js';
import type { Site } from './model.js';
import { apiBase, links, pagePath } from './urls.js';

const CLOSED = new Set(['booked', 'unavailable']);
const DAY = 86_400_000;

/** The month `n` months after a YYYY-MM month. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The months a question may ask about: the build's month and the horizon after it. */
export function horizon(site: Site): { from: string; to: string } {
  const from = clockMonth(site);
  return { from, to: addMonths(from, site.profile.availability.horizon_months - 1) };
}

/** The first day new work can start: not before `from`, nor before the lead time has passed; null when closed. */
export function earliestStart(site: Site): string | null {
  const a = site.profile.availability;
  if (CLOSED.has(a.status.toLowerCase())) return null;
  const today = clockDay(site);
  const afterLead = new Date(Date.parse(today) + (a.lead_time_weeks ?? 0) * 7 * DAY).toISOString().slice(0, 10);
  return [today, afterLead, a.from ?? today].sort().at(-1)!;
}

export interface Fit {
  service: string | null;
  month: string | null;
  fits: boolean;
  /** The first day that work could start within the month (or at all, without a month); null when it does not fit. */
  starts: string | null;
  formats: string[];
  rate_band: string | null;
  answer: string;
}

export type FitQuestion = { service?: string; month?: string };
export type FitProblem = { message: string; hint: string };

export function checkFit(site: Site, q: FitQuestion): Fit | FitProblem {
  const a = site.profile.availability;
  const ids = site.services.map((s) => s.id);
  const booking = a.booking_url ?? site.profile.contact.calendar ?? `mailto:${site.profile.contact.email}`;
  const range = horizon(site);
  if (q.service !== undefined && !ids.includes(q.service)) {
    return {
      message: `There is no service with the id "${q.service}".`,
      hint: ids.length
        ? `Service ids: ${ids.join(', ')} (also listed at ${apiBase(site)}/services).`
        : 'This site lists no services; ask without a service.',
    };
  }
  if (q.month !== undefined && (q.month < range.from || q.month > range.to)) {
    return {
      message: `Availability is published for ${range.from} to ${range.to}, not for ${q.month}.`,
      hint: `Ask about a month from ${range.from} to ${range.to}, or ask directly: ${booking}`,
    };
  }
  const engagement = q.service === undefined ? undefined : a.engagements.find((e) => e.service === q.service);
  const offered = q.service === undefined || !a.engagements.length || engagement !== undefined;
  const earliest = earliestStart(site);
  let starts: string | null = earliest;
  if (q.month !== undefined && earliest !== null) starts = earliest > lastDay(q.month) ? null : [earliest, `${q.month}-01`].sort().at(-1)!;
  const fits = offered && starts !== null;
  const what = q.service === undefined ? 'New work' : `New work on ${site.services.find((s) => s.id === q.service)!.title}`;
  const when = q.month === undefined ? '' : ` in ${q.month}`;
  let answer: string;
  if (!offered)
    answer = `${what} is not offered as an engagement at the moment; the engagements on offer are for ${a.engagements.map((e) => e.service).join(', ')}.`;
  else if (earliest === null) answer = `${what}${when} does not fit: the status is "${a.status}".`;
  else if (starts === null) answer = `${what}${when} does not fit: the earliest start is ${earliest}.`;
  else
    answer = `${what}${when} fits, starting from ${starts}${a.days_per_week ? ` at up to ${a.days_per_week} days a week` : ''}. Book at ${booking}.`;
  return {
    service: q.service ?? null,
    month: q.month ?? null,
    fits,
    starts: fits ? starts : null,
    formats: engagement?.formats ?? [],
    rate_band: engagement?.rate_band ?? null,
    answer,
  };
}

/** GET /api/v1/availability (D60): the statement, its state on the build's day, and an answer when asked. */
export function availabilityResource(site: Site, check: Fit | null) {
  const a = site.profile.availability;
  const titles = new Map(site.services.map((s) => [s.id, s.title]));
  return {
    status: a.status,
    note: a.note,
    from: a.from,
    days_per_week: a.days_per_week,
    lead_time_weeks: a.lead_time_weeks,
    booking_url: a.booking_url,
    as_of: clockDay(site),
    earliest_start: earliestStart(site),
    horizon: horizon(site),
    engagements: a.engagements.map((e) => ({ ...e, title: titles.get(e.service)!, api_url: `${apiBase(site)}/services/${e.service}` })),
    check,
    ...links(site, pagePath.about(), '/availability'),
  };
}
