// The `tags` field of posts and projects: lowercase slugs (D9), and a
// warning for a tag whose slug loses what told it apart.
import { slugify } from '../core/params.js';
import type { Fields } from './fields.js';

/**
 * What a tag loses to its slug (D9) that told it apart: a letter or digit
 * outside a-z and 0-9 ("ß", "ø"), or a symbol ("+" of C++, "#" of C#, "♯",
 * "&" of R&D, "@", an emoji). Case, accents, spaces and punctuation
 * ("Node.js", "Go (language)") are what a slug leaves out anyway.
 */
function lostToSlug(tag: string): string[] {
  const plain = tag.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const lost = (c: string) => (/[\p{L}\p{N}]/u.test(c) ? !/[a-zA-Z0-9]/.test(c) : /[\p{S}#&@]/u.test(c));
  return [...new Set([...plain].filter(lost))];
}

/** The `tags` field as slugs, each once, in the order written; undefined after a problem. */
export function readTags(f: Fields): string[] | undefined {
  const list = f.list('tags', 'postgres, migrations');
  if (!list) return undefined;
  const raw = f.doc.data.tags;
  // One text with commas is a list written as Hugo's and Jekyll's front-matter allow; read as one tag it would be "a-b".
  if (typeof raw === 'string' && raw.includes(',')) {
    const items = raw.split(',').map((t) => t.trim()).filter(Boolean);
    f.report('tags', `\`tags\` is one text, "${raw}", which would be the one tag "${slugify(raw)}".`, `Write the tags as a list: tags: [${items.join(', ')}]`);
    return undefined;
  }
  // Jekyll reads one text of tags as words separated by spaces; folio, as the one tag it names. Both are fair readings: said, not refused.
  if (typeof raw === 'string' && /\s/.test(raw.trim()))
    f.warn('tags', `\`tags\` is one text, "${raw}", published as the one tag "${slugify(raw)}", where Jekyll reads a tag of each word.`, `For a tag of each word, write tags: [${raw.trim().split(/\s+/).join(', ')}]; for the one tag, write tags: [${slugify(raw)}].`);
  // Each written tag with its place in the list, where a warning points.
  const written = Array.isArray(raw)
    ? raw.map((r, i) => [String(r).trim(), i] as const).filter(([t]) => t)
    : list.map((t) => [t, undefined] as const);
  const out: string[] = [];
  const warned = new Set<string>();
  for (const [t, index] of written) {
    const tag = slugify(t);
    if (!tag) {
      f.report('tags', `The tag "${t}" has no letters or digits.`, 'Tags are lowercase slugs such as postgres or data-migrations.');
      return undefined;
    }
    // Said, not silent: "C++" and "C#" would both publish as "c" and share one tag page.
    const lost = lostToSlug(t);
    if (lost.length && !warned.has(t)) {
      warned.add(t);
      f.warn(
        'tags',
        `The tag "${t}" is published as "${tag}": tags are lowercase slugs (a-z, digits, hyphens), so ${lost.map((c) => `"${c}"`).join(' and ')} ${lost.length === 1 ? 'is' : 'are'} dropped.`,
        `Write the tag as the slug you mean, e.g. cpp for C++ or csharp for C#, so it does not share a tag page with another.`,
        index,
      );
    }
    if (!out.includes(tag)) out.push(tag);
  }
  return out;
}
