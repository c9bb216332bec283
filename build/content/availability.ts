// The profile's `availability` (D60): status and note, and optionally when
// new work can start, how much of the week, the lead time, the engagements
// per service and where to book. Each rule reports at the field's own line.
import type { Availability, Engagement } from '../core/model.js';
import { isDate, type Fields } from './fields.js';
import { closest } from './problems.js';

/** A service named in `engagements`, with its position, for the check against the services (site.ts). */
export interface ServiceRef {
  service: string;
  file: string;
  line: number;
  column: number;
}

const EXAMPLE = '{ status: available, note: "Taking engagements from March" }';
const KEYS = ['status', 'note', 'from', 'days_per_week', 'lead_time_weeks', 'engagements', 'booking_url', 'horizon_months'];
const DEFAULT_HORIZON = 6;

export function readAvailability(f: Fields, refs: ServiceRef[]): Availability | undefined {
  const raw = f.map('availability', EXAMPLE);
  if (!raw) return undefined;
  let ok = true;
  const fail = (key: string, message: string, hint: string) => {
    f.report(`availability.${key}`, message, hint);
    ok = false;
  };
  // Other keys pass through, but one that is a typo of a field would be silently ignored.
  for (const key of Object.keys(raw)) {
    const near = KEYS.includes(key) ? undefined : closest(key, KEYS);
    if (near) fail(key, `\`availability.${key}\` is not a field of availability.`, `Did you mean "${near}"? The fields are ${KEYS.join(', ')}.`);
  }
  const status = typeof raw.status === 'string' ? raw.status.trim() : '';
  if (!status) fail('status', '`availability.status` is missing.', `Write availability: ${EXAMPLE}`);
  const note = typeof raw.note === 'string' ? raw.note.trim() : '';

  const from = dateValue(raw.from);
  if (from === false) fail('from', `\`availability.from\` is not a date: ${JSON.stringify(raw.from)}.`, 'Write it as YYYY-MM-DD, e.g. from: 2027-01-04');

  const days = numberValue(raw.days_per_week);
  if (days === false || (days !== null && (days < 0.5 || days > 7))) {
    fail('days_per_week', `\`availability.days_per_week\` is ${JSON.stringify(raw.days_per_week)}, outside 0.5–7.`, 'Write how many days a week you can give new work, from 0.5 to 7, e.g. days_per_week: 2');
  }
  const lead = numberValue(raw.lead_time_weeks);
  if (lead === false || (lead !== null && lead < 0)) {
    fail('lead_time_weeks', `\`availability.lead_time_weeks\` is ${JSON.stringify(raw.lead_time_weeks)}, not a number of weeks of 0 or more.`, 'Write how many weeks of notice you need, e.g. lead_time_weeks: 2');
  }
  const booking = raw.booking_url;
  if (booking !== undefined && booking !== null && (typeof booking !== 'string' || !/^https?:\/\/[^\s/]+[^\s]*$/.test(booking))) {
    fail('booking_url', `\`availability.booking_url\` ${JSON.stringify(booking)} is not an absolute http(s) URL.`, 'Write it as booking_url: https://cal.example/intro');
  }
  const horizon = numberValue(raw.horizon_months);
  if (horizon === false || (horizon !== null && (!Number.isInteger(horizon) || horizon < 1 || horizon > 24))) {
    fail('horizon_months', `\`availability.horizon_months\` is ${JSON.stringify(raw.horizon_months)}, not a whole number from 1 to 24.`, `Write how many months ahead the statement holds, e.g. horizon_months: ${DEFAULT_HORIZON}`);
  }
  const engagements = readEngagements(f, raw.engagements, refs);
  if (!engagements) ok = false;
  if (!ok) return undefined;
  return {
    status,
    note,
    from: from === null ? null : (from as string),
    days_per_week: days === null ? null : (days as number),
    lead_time_weeks: lead === null ? null : (lead as number),
    engagements: engagements!,
    booking_url: typeof booking === 'string' ? booking : null,
    horizon_months: (horizon as number | null) ?? DEFAULT_HORIZON,
  };
}

const ENGAGEMENT_EXAMPLE = '- { service: deliverability-audit, formats: [audit, retainer], rate_band: "EUR 900–1,100 a day" }';

function readEngagements(f: Fields, raw: unknown, refs: ServiceRef[]): Engagement[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    f.report('availability.engagements', '`availability.engagements` must be a list.', `Write one item per service: ${ENGAGEMENT_EXAMPLE}`);
    return undefined;
  }
  const out: Engagement[] = [];
  let ok = true;
  raw.forEach((item, i) => {
    const where = f.doc.position('availability.engagements', i);
    const report = (message: string, hint = `Write each item as ${ENGAGEMENT_EXAMPLE}`) => {
      f.problems.push({ file: f.doc.source.file, ...where, message, hint });
      ok = false;
    };
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return report(`\`availability.engagements\` item ${i + 1} is not a map.`);
    const e = item as Record<string, unknown>;
    for (const key of Object.keys(e)) if (!['service', 'formats', 'rate_band'].includes(key)) report(`\`${key}\` is not a field of an engagement (item ${i + 1}).`, 'An engagement has service, formats and an optional rate_band.');
    if (typeof e.service !== 'string' || !e.service.trim()) return report(`Engagement ${i + 1} names no \`service\`.`, 'Name the service by its id (its file name under services/), e.g. service: deliverability-audit');
    const formats = typeof e.formats === 'string' ? [e.formats] : e.formats;
    if (!Array.isArray(formats) || !formats.length || formats.some((x) => typeof x !== 'string' || !x.trim())) {
      return report(`Engagement ${i + 1} (${e.service}) needs \`formats\`, a list of text such as audit, retainer or project.`, 'Write it as formats: [audit, retainer]');
    }
    if (e.rate_band !== undefined && e.rate_band !== null && typeof e.rate_band !== 'string' && typeof e.rate_band !== 'number') return report(`The rate_band of engagement ${i + 1} must be text.`, 'Write it as rate_band: "EUR 900–1,100 a day"');
    const service = e.service.trim();
    refs.push({ service, file: f.doc.source.file, ...where });
    out.push({ service, formats: formats.map((x: string) => x.trim()), rate_band: e.rate_band === undefined || e.rate_band === null ? null : String(e.rate_band) });
  });
  return ok ? out : undefined;
}

/** A YYYY-MM-DD date (YAML may have read it as a Date), null when absent, false when it is not one. */
function dateValue(v: unknown): string | null | false {
  if (v === undefined || v === null) return null;
  const text = v instanceof Date && !Number.isNaN(v.getTime()) ? v.toISOString().slice(0, 10) : v;
  return typeof text === 'string' && isDate(text) ? text : false;
}

function numberValue(v: unknown): number | null | false {
  if (v === undefined || v === null) return null;
  return typeof v === 'number' && Number.isFinite(v) ? v : false;
}
