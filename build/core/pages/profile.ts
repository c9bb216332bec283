// The profile's pieces that the home and about pages share: availability and
// the contact routes, in HTML and in Markdown.
import { mdText } from '../markdown-text.js';
import type { Profile } from '../model.js';
import { html, safeHref, trusted, type Html } from './html.js';

const AVAILABILITY: Record<string, string> = {
  available: 'Available for new work',
  limited: 'Limited availability',
  booked: 'Fully booked',
  unavailable: 'Not taking new work',
};

export function availabilityLabel(status: string): string {
  return AVAILABILITY[status.toLowerCase()] ?? humanise(status);
}

const CONTACT_LABELS: Record<string, string> = {
  email: 'Email',
  url: 'Website',
  calendar: 'Book a call',
  phone: 'Phone',
  mastodon: 'Mastodon',
  bluesky: 'Bluesky',
  linkedin: 'LinkedIn',
  github: 'GitHub',
  gitlab: 'GitLab',
  git: 'Code',
};

export function contactLabel(key: string): string {
  return CONTACT_LABELS[key.toLowerCase()] ?? humanise(key);
}

export function humanise(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The href of a contact route: email addresses become mailto:, unsafe schemes none (D24). */
export function contactHref(key: string, value: string): string | null {
  if (key === 'email' || /^[^\s@/:]+@[^\s@/]+\.[^\s@/]+$/.test(value)) return safeHref(`mailto:${value}`);
  if (key === 'phone') return /^\+?[0-9 ()-]+$/.test(value) ? `tel:${value.replace(/[^+0-9]/g, '')}` : null;
  return safeHref(value);
}

/** Shown without the scheme, as people read addresses. */
function display(value: string): string {
  return value.replace(/^https?:\/\//, '').replace(/\/$/, '');
}

export function contactList(profile: Profile): Html {
  return html`<dl class="contact-list">
${Object.entries(profile.contact).map(([key, value]) => {
  const href = contactHref(key, value);
  return html`<div><dt>${contactLabel(key)}</dt><dd>${href ? html`<a href="${href}">${display(value)}</a>` : display(value)}</dd></div>
`;
})}</dl>`;
}

export function contactMarkdown(profile: Profile): string {
  return Object.entries(profile.contact)
    .map(
      ([key, value]) =>
        `- ${contactLabel(key)}: ${/^(https?:\/\/|mailto:)?[^\s<>]+$/.test(value) && contactHref(key, value) ? `<${value}>` : mdText(value)}`,
    )
    .join('\n');
}

/** The profile photo (D45), near the top of the page: loaded at once, not lazily. */
export function photoHtml(profile: Profile): Html | '' {
  if (!profile.photo_attributes || !profile.photo_alt) return '';
  return html`<img class="photo" ${trusted(profile.photo_attributes)} alt="${profile.photo_alt}" decoding="async">`;
}
