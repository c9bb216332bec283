// The site's statements about itself in site.yaml (D59): what the writing
// is, a disclaimer, what the site is not, fair use. Each is optional; a site
// that leaves one out says nothing of the kind. Fair use alone has a default.
import type { SiteStatements } from '../core/model.js';
import type { Fields } from './fields.js';

export const STATEMENT_FIELDS = ['writing', 'disclaimer', 'footer', 'is_not', 'fair_use'] as const;

/** About 60 requests a minute unless the site asks for another figure (D59). */
export const DEFAULT_REQUESTS_PER_MINUTE = 60;

const MAX_REQUESTS_PER_MINUTE = 100_000;

export function readStatements(f: Fields): SiteStatements | undefined {
  const before = f.problems.length;
  // A phrase that completes "The posts are …": a full stop would end up mid-sentence.
  const writing = f.words('writing', 'notes from my consulting work')?.replace(/\s*\.$/, '');
  const disclaimer = f.words('disclaimer', 'Nothing here is professional advice for your situation.');
  const footer = f.words('footer', 'Notes from practice, not professional advice.');
  const isNot = f.wordList('is_not', '"It is not a support channel."');
  const fairUse = readFairUse(f);
  if (f.problems.length > before) return undefined;
  return {
    writing: writing || null,
    disclaimer: disclaimer ?? null,
    footer: footer ?? disclaimer ?? null,
    is_not: isNot!,
    fair_use: fairUse!,
  };
}

function readFairUse(f: Fields): SiteStatements['fair_use'] | undefined {
  const example = `{ requests_per_minute: ${DEFAULT_REQUESTS_PER_MINUTE} }`;
  const map = f.map('fair_use', example, false);
  if (!map) return f.has('fair_use') ? undefined : { requests_per_minute: DEFAULT_REQUESTS_PER_MINUTE, default: true };
  const other = Object.keys(map).find((k) => k !== 'requests_per_minute');
  if (other !== undefined) {
    f.report(`fair_use.${other}`, `\`fair_use.${other}\` is not a field of fair_use.`, `fair_use has one field: write fair_use: ${example}`);
    return undefined;
  }
  const n = map.requests_per_minute;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_REQUESTS_PER_MINUTE) {
    const given = n === undefined ? 'missing' : JSON.stringify(n);
    f.report(n === undefined ? 'fair_use' : 'fair_use.requests_per_minute', `\`fair_use.requests_per_minute\` must be a whole number from 1 to ${MAX_REQUESTS_PER_MINUTE}, not ${given}.`, `Write it as fair_use: ${example}, or leave fair_use out for the default of about ${DEFAULT_REQUESTS_PER_MINUTE}.`);
    return undefined;
  }
  return { requests_per_minute: n, default: false };
}
