// How the documents word the site's statements about itself (D59). The
// statements are the site's, from site.yaml; only fair use has a default,
// and then it is said to be one.
import type { Site } from './model.js';

/** "about 60 requests a minute", marked "(the default)" when the site sets no figure of its own. */
export function fairRate(site: Site, per: 'a minute' | 'per minute' = 'a minute'): string {
  const { requests_per_minute, default: isDefault } = site.config.statements.fair_use;
  return `about ${requests_per_minute} requests ${per}${isDefault ? ' (the default)' : ''}`;
}

/** "The posts are notes from my consulting work." with the disclaimer after it: whichever the site states, else "". */
export function writingAndDisclaimer(site: Site): string {
  const { writing, disclaimer } = site.config.statements;
  return [writing ? `The posts are ${writing}.` : null, disclaimer].filter(Boolean).join(' ');
}

/** What the site says it is not, the disclaimer first; empty when it says nothing. */
export function whatItIsNot(site: Site): string[] {
  const { disclaimer, is_not } = site.config.statements;
  return [...(disclaimer ? [disclaimer] : []), ...is_not];
}

/** The writing as a label, e.g. "Notes from my consulting work", else "Posts". */
export function writingLabel(site: Site): string {
  const { writing } = site.config.statements;
  return writing ? writing[0]!.toUpperCase() + writing.slice(1) : 'Posts';
}

/** "a, b and c"; "a, b, and c" with the serial comma. */
export function listText(items: readonly string[], serialComma = false): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')}${serialComma && items.length > 2 ? ',' : ''} and ${items[items.length - 1]}`;
}
