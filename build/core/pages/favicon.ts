// The icon every page links (D20, D43): the site's own favicon when
// content/static/ has one at its root, else a monogram of the profile's name.
import type { Site } from '../model.js';
import { unicode } from '../unicode.js';
import { html, type Html } from './html.js';

const LETTER_OR_DIGIT = unicode('[\\p{L}\\p{N}]');

/**
 * The favicons a site may publish, in the order they are linked: browsers
 * take the last icon they can show, so the SVG comes last for those that
 * show SVG and the others fall back to the PNG or ICO before it.
 */
const OWN = ['/favicon.ico', '/favicon.png', '/favicon.svg'];

/** What a page shows when the name has no letter or digit, nor the site title. */
const NO_INITIALS = '•';

/** The first letter or digit of each of the first two words that have one, of any script, in capitals. */
function initials(text: string): string {
  const firsts = text
    .normalize('NFC')
    .split(/\s+/)
    .map((word) => LETTER_OR_DIGIT().exec(word)?.[0] ?? '')
    .filter(Boolean);
  // Uppercasing may lengthen a letter (ß → SS): two characters at most still fit the square.
  return [...firsts.join('').toUpperCase()].slice(0, 2).join('');
}

/** A data: URL, so browsers do not ask for /favicon.ico and the route table has no entry for it. */
function monogram(site: Site): string {
  const text = initials(site.profile.name) || initials(site.config.title) || NO_INITIALS;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${site.config.theme?.accent ?? '#0b5cad'}"/><text x="32" y="42" font-family="system-ui,sans-serif" font-size="28" font-weight="700" text-anchor="middle" fill="#fff">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The `<link rel="icon">` tags of every page. */
export function iconLinks(site: Site): Html {
  const own = OWN.flatMap((path) => site.static.filter((f) => f.path === path));
  if (!own.length) return html`<link rel="icon" href="${monogram(site)}">`;
  return html`${own.map((f, i) => html`${i ? '\n' : ''}<link rel="icon" href="${f.path}" type="${f.content_type}">`)}`;
}
