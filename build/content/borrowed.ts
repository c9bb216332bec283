// Front-matter fields of a post that Hugo or Jekyll read and folio does not.
// Any field folio does not read passes through to the API (D2), but these
// have a meaning the author relies on, and passing them through in silence
// loses it: the post shows no update date, its summary is another, its link
// previews show another image, or a post Jekyll held back is published.
// Each is said at its line with the field folio reads instead.
import type { Fields } from './fields.js';

interface Borrowed {
  /** What the field is elsewhere, and what folio does instead, after "`key` is". */
  means: string;
  /** The fix, from the value as written. */
  fix: (value: string) => string;
  /** Whether the field, as written, means what it means elsewhere; else it is a field of the author's own (D2). */
  applies?: (value: unknown, data: Record<string, unknown>) => boolean;
}

const UPDATED: Borrowed = {
  means: "the day of the last change in Hugo and Jekyll; folio reads that from `updated`, so this post shows none",
  fix: (v) => `Rename it: updated: ${v.slice(0, 10)}`,
};
const SUMMARY: Borrowed = {
  means: 'the summary in Hugo and Jekyll; folio reads `summary`, and without it takes the first paragraph',
  fix: (v) => `Rename it: summary: ${v.length > 40 ? `${v.slice(0, 39)}…` : v}`,
  // Beside a summary of its own, it is another field of the author's.
  applies: (_, data) => data.summary === undefined,
};
const CATEGORIES: Borrowed = {
  means: 'a grouping of posts in Hugo and Jekyll; folio has tags alone, and makes no page or filter of it',
  fix: (v) => `Move them into tags, e.g. tags: [${v}], or keep it as a field of your own.`,
};
const SCHEDULE: Borrowed = {
  means: "Hugo's schedule for the post; folio publishes a post from its `date` on and never takes it down",
  fix: () => 'Set date to the day the post should appear (draft: true holds it back), and remove this field.',
};
const ADDRESS: Borrowed = {
  means: "the post's address in Hugo and Jekyll; folio publishes it at /blog/<slug> (the file name, or `slug`)",
  // An alias is written without the trailing slash of pretty URLs, and answers with it too.
  fix: (v) =>
    v.includes(':')
      ? 'List the address it gave this post under aliases, so links to it keep working, e.g. aliases: [/2019/05/old-title]'
      : `List the old address under aliases, so links to it keep working: aliases: [${v.length > 1 ? v.replace(/\/+$/, '') : v}]`,
  // An address of the site; a whole URL (https://…) is where else the post appeared, a field of the author's own.
  applies: (value) => typeof value === 'string' && value.startsWith('/') && !value.startsWith('//'),
};
/** Whether a social image field names an image: Hugo's `images` list, PaperMod's `cover.image`, or a path. */
function namesImage(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  const path = first !== null && typeof first === 'object' ? (first as Record<string, unknown>).image : first;
  return typeof path === 'string' && path.trim() !== '';
}

const CARD_IMAGE: Borrowed = {
  means: "the post's image for link previews in Hugo's and Jekyll's themes; folio's card shows the first PNG, JPEG, GIF, WebP or AVIF image in the post's body, else the site's image",
  fix: () => 'Show the image in the body, e.g. ![What it shows](./img/cover.png), or keep this as a field of your own.',
  applies: namesImage,
};

const POST_FIELDS: Record<string, Borrowed> = {
  lastmod: UPDATED,
  last_modified_at: UPDATED,
  description: SUMMARY,
  excerpt: SUMMARY,
  categories: CATEGORIES,
  category: CATEGORIES,
  publishDate: SCHEDULE,
  publishdate: SCHEDULE,
  expiryDate: SCHEDULE,
  expirydate: SCHEDULE,
  permalink: ADDRESS,
  url: ADDRESS,
  images: CARD_IMAGE,
  image: CARD_IMAGE,
  cover: CARD_IMAGE,
  featured_image: CARD_IMAGE,
  feature_image: CARD_IMAGE,
};

function shown(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

/**
 * Warns of each field of `POST_FIELDS` in a post, and refuses Jekyll's
 * `published: false`, which holds a post back there and would publish it here.
 */
export function borrowedPostFields(f: Fields): void {
  const data = f.doc.data;
  const held = data.published === false || (typeof data.published === 'string' && data.published.trim().toLowerCase() === 'false');
  if (held && data.draft !== true)
    f.report('published', '`published: false` holds this post back in Jekyll, but folio reads `draft`, so it would publish it.', 'Write draft: true instead of published: false.');
  // In the order of the file, as the other warnings are.
  for (const [key, value] of Object.entries(data)) {
    const borrowed = Object.hasOwn(POST_FIELDS, key) ? POST_FIELDS[key] : undefined;
    if (!borrowed || value === undefined || value === null || value === '' || borrowed.applies?.(value, data) === false) continue;
    f.warn(key, `\`${key}\` is ${borrowed.means}.`, borrowed.fix(shown(value)));
  }
}
