// Readers for each kind of content file (D2). Each validates its fields with
// one small check per rule and renders its body once.
import { PROJECT_STATUSES, type Post, type Profile, type Project, type Service } from '../core/model.js';
import { slugify } from '../core/params.js';
import { readAvailability, type ServiceRef } from './availability.js';
import { Fields } from './fields.js';
import { parseFrontMatter, type Parsed, type Source } from './frontmatter.js';
import { isLocalImage, type ImageRef } from './image-refs.js';
import { clip, render, type Link, type Rendered } from './markdown.js';
import type { Problem } from './problems.js';
import type { PostDigest } from '../derived.js';
import { tooDeep } from './nesting.js';
import { readAliases, type AliasSource } from './aliases.js';
import { readTags } from './tags.js';
import { borrowedPostFields } from './borrowed.js';
import { baseName } from './litter.js';
import { emptyPostWarning, rawHtmlWarning, templateWarning } from './body-warnings.js';

/** A link found in a body, with its position in the file, for the link check. */
export interface FileLink extends Link {
  file: string;
}

/**
 * A local image of a file (D44), for the build to resolve: start and end are
 * offsets into the stored Markdown (content_markdown, body_markdown or
 * bio_markdown); profile.md's `photo` has none (field "photo").
 */
export interface FileImage extends ImageRef {
  file: string;
  field: 'body' | 'photo';
}

export interface Read<T> {
  value: T;
  links: FileLink[];
  /** Local images, the body's in document order, then the photo. */
  images: FileImage[];
  draft?: boolean;
  /** The `aliases` of the file, with their positions (D48). */
  aliases?: AliasSource[];
  /** Services the profile's engagements name, checked against the services (D60). */
  services?: ServiceRef[];
  /** Where a post's `updated` is written, for the check against the build clock (site.ts). */
  updatedAt?: { line: number; column: number };
  /** What the build says but does not refuse (a tag its slug changes, raw HTML the pages leave out), at its position. */
  warnings?: Problem[];
}

const WORDS_PER_MINUTE = 220;
const SLUG = /^[a-z0-9][a-z0-9-]*$/;

/** The body as the model keeps it (content_markdown and the like): without leading blank lines. */
function markdownOf(doc: Parsed): string {
  return doc.body.replace(/^\n+/, '');
}

function body(doc: Parsed): { rendered: Rendered; links: FileLink[]; images: FileImage[]; warnings: Problem[] } {
  const rendered = render(doc.body);
  const file = doc.source.file;
  // Offsets are kept relative to markdownOf(doc), the text they will be applied to.
  const shift = doc.body.length - markdownOf(doc).length;
  const links = rendered.links.map((l) => ({ ...l, file, line: l.line + doc.bodyLine - 1, ...(l.offset === undefined ? {} : { offset: l.offset - shift }) }));
  const images = rendered.images.map((i): FileImage => ({ ...i, file, field: 'body', line: i.line + doc.bodyLine - 1, start: i.start - shift, end: i.end - shift }));
  const warnings = [...rendered.rawHtml.map((h) => rawHtmlWarning(file, h, doc.bodyLine)), ...rendered.templates.map((t) => templateWarning(file, t, doc.bodyLine))];
  return { rendered, links, images, warnings };
}

function idField(f: Fields, key: string, fileName: string): string | undefined {
  const given = f.string(key, fileName, false);
  const id = given ?? fileName;
  if (!SLUG.test(id)) {
    const suggestion = slugify(id) || 'my-post';
    if (given) f.report(key, `\`${key}\` "${id}" is not a lowercase slug.`, `Use letters, digits and hyphens, e.g. ${key}: ${suggestion}`);
    else f.report(key, `The file name "${fileName}" is not a lowercase slug, so it cannot be the ${key}.`, `Rename the file to ${suggestion}.md or set ${key}: ${suggestion}`);
    return undefined;
  }
  return id;
}

export const POST_FIELDS = ['title', 'date', 'tags', 'summary', 'updated', 'draft', 'slug', 'aliases'] as const;

export function readPost(doc: Parsed, fileName: string, problems: Problem[]): Read<Post> | null {
  const before = problems.length;
  const f = new Fields(doc, 'post', POST_FIELDS, problems);
  const title = f.string('title', 'Notes from a database migration');
  const date = f.date('date');
  const updated = f.date('updated', false);
  const tagList = readTags(f);
  const summary = f.string('summary', 'One sentence on what the post reports.', false);
  const draft = f.boolean('draft');
  const slug = idField(f, 'slug', fileName);
  const aliases = readAliases(f, '/blog/old-slug, /2019/05/old-title.html');
  borrowedPostFields(f);
  if (date && updated && updated < date) f.report('updated', `\`updated\` (${updated}) is before \`date\` (${date}).`, 'Set updated to the day of the last real change, on or after date.');
  f.warnNearFields();
  const { rendered, links, images, warnings } = body(doc);
  if (!markdownOf(doc).trim()) warnings.push(emptyPostWarning(doc));
  if (problems.length > before) return null;
  return {
    draft: draft!,
    ...(updated ? { updatedAt: doc.position('updated') } : {}),
    links,
    warnings: [...f.warnings, ...warnings],
    aliases: aliases!,
    images,
    value: {
      slug: slug!,
      aliases: aliases!.map((a) => a.path),
      title: title!,
      date: date!,
      updated: updated ?? null,
      tags: tagList!,
      summary: summary ?? clip(rendered.firstParagraph),
      reading_time_minutes: Math.max(1, Math.ceil(rendered.words / WORDS_PER_MINUTE)),
      content_markdown: markdownOf(doc),
      text: rendered.text,
      html: rendered.html,
      image: null,
      extra: f.extra(),
    },
  };
}

export const PROJECT_FIELDS = ['title', 'status', 'summary', 'url', 'started', 'ended', 'tags', 'id', 'aliases'] as const;

export function readProject(doc: Parsed, fileName: string, problems: Problem[]): Read<Project> | null {
  const before = problems.length;
  const f = new Fields(doc, 'project', PROJECT_FIELDS, problems);
  const title = f.string('title', 'Reporting pipeline for a retailer');
  const status = f.oneOf('status', PROJECT_STATUSES);
  const url = f.string('url', 'https://example.com', false);
  if (url && !/^https?:\/\/[^\s]+$/.test(url)) f.report('url', `\`url\` "${url}" is not an absolute http(s) URL.`, 'Write it as url: https://example.com');
  const started = f.month('started');
  const ended = f.month('ended');
  if (started && ended && ended < started) f.report('ended', `\`ended\` (${ended}) is before \`started\` (${started}).`, 'Swap the two, or correct the dates.');
  const tagList = readTags(f);
  const id = idField(f, 'id', fileName);
  const aliases = readAliases(f, '/projects/old-id');
  f.warnNearFields();
  const { rendered, links, images, warnings } = body(doc);
  const summary = f.string('summary', 'One sentence on what the project is.', false) ?? clip(rendered.firstParagraph);
  if (!summary) f.report('summary', 'A project needs `summary`, and it is missing (and the body has no paragraph to take it from).', 'Add it to the front-matter, e.g. summary: One sentence on what the project is.');
  if (problems.length > before) return null;
  return {
    links,
    warnings: [...f.warnings, ...warnings],
    aliases: aliases!,
    images,
    value: {
      id: id!,
      aliases: aliases!.map((a) => a.path),
      title: title!,
      status: status!,
      summary,
      url: url ?? null,
      started: started ?? null,
      ended: ended ?? null,
      tags: tagList!,
      body_markdown: markdownOf(doc),
      text: rendered.text,
      html: rendered.html,
      extra: f.extra(),
    },
  };
}

export const SERVICE_FIELDS = ['title', 'summary', 'best_fit', 'order', 'id', 'aliases'] as const;

export function readService(doc: Parsed, fileName: string, problems: Problem[]): Read<Service> | null {
  const before = problems.length;
  const f = new Fields(doc, 'service', SERVICE_FIELDS, problems);
  const title = f.string('title', 'Data platform review');
  const summary = f.string('summary', 'One sentence on the consulting area.');
  const bestFit = f.list('best_fit', 'a team whose nightly jobs keep failing', true);
  const order = f.integer('order', 1000);
  const id = idField(f, 'id', fileName);
  const aliases = readAliases(f, '/services/old-id');
  f.warnNearFields();
  const { rendered, links, images, warnings } = body(doc);
  if (problems.length > before) return null;
  return {
    links,
    warnings: [...f.warnings, ...warnings],
    images,
    aliases: aliases!,
    value: { id: id!, aliases: aliases!.map((a) => a.path), title: title!, summary: summary!, best_fit: bestFit!, order: order!, body_markdown: markdownOf(doc), body_html: rendered.html, extra: f.extra() },
  };
}

export const PROFILE_FIELDS = ['name', 'headline', 'location', 'expertise', 'availability', 'contact', 'photo', 'photo_alt'] as const;

/** profile.md's `photo` and its required `photo_alt` (D45), as an image for the build to resolve like a body's (D44). */
function photo(f: Fields, doc: Parsed): FileImage | null | undefined {
  const src = f.string('photo', './photo.jpg', false);
  const alt = f.string('photo_alt', 'Illustrated portrait of Ada Example', false);
  // A blank photo_alt reads as absent, but was still written: without a photo it is a mistake.
  const altWritten = doc.data.photo_alt !== undefined && doc.data.photo_alt !== null;
  if (src === undefined && !altWritten) return null;
  if (src === undefined) {
    f.report('photo_alt', '`photo_alt` is set but there is no `photo`.', 'Add photo: ./photo.jpg (a path like an image in Markdown), or remove photo_alt.');
    return undefined;
  }
  if (!alt?.trim()) {
    f.report(alt === undefined ? 'photo' : 'photo_alt', `The photo ${src} has no alt text (\`photo_alt\`).`, 'Say what it shows, e.g. photo_alt: Illustrated portrait of Ada at a desk. Screen readers and agents read it instead of the image.');
    return undefined;
  }
  if (!isLocalImage(src)) {
    f.report('photo', `\`photo\` "${src}" is not a path to a file of the site.`, 'Put the image in content/ and name it by path, e.g. photo: ./photo.jpg or photo: /photo.jpg (from content/static/).');
    return undefined;
  }
  const at = doc.position('photo');
  return { src, alt: alt.trim(), title: null, line: at.line, column: at.column, start: 0, end: 0, file: doc.source.file, field: 'photo' };
}

export function readProfile(doc: Parsed, problems: Problem[]): Read<Profile> | null {
  const before = problems.length;
  const f = new Fields(doc, 'profile', PROFILE_FIELDS, problems);
  const name = f.string('name', 'Ada Example');
  const headline = f.string('headline', 'Independent platform engineer');
  const location = f.string('location', 'Lisbon, Portugal');
  const expertise = f.list('expertise', 'data pipelines, Postgres', true);
  const refs: ServiceRef[] = [];
  const avail = readAvailability(f, refs);
  const contact = f.map('contact', '{ email: ada@example.com }');
  const picture = photo(f, doc);
  f.warnNearFields();
  const { rendered, links, images, warnings } = body(doc);
  let routes: Profile['contact'] | undefined;
  if (contact) {
    const email = contact.email;
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) f.report('contact', '`contact.email` is missing or not an email address.', 'Write contact: { email: ada@example.com }');
    else routes = Object.fromEntries(Object.entries(contact).map(([k, v]) => [k, String(v)])) as Profile['contact'];
  }
  if (problems.length > before) return null;
  return {
    links,
    warnings: [...f.warnings, ...warnings],
    images: picture ? [...images, picture] : images,
    services: refs,
    value: {
      name: name!,
      headline: headline!,
      location: location!,
      expertise: expertise!,
      availability: avail!,
      contact: routes!,
      bio_markdown: markdownOf(doc),
      bio_html: rendered.html,
      photo_url: null,
      photo_alt: picture?.alt ?? null,
      extra: f.extra(),
    },
  };
}

/** The content kinds whose files are read one by one (and so can be cached and read in parallel). */
export type DocumentKind = 'profile' | 'service' | 'post' | 'project';

/**
 * Everything one content file contributes, from its text alone: the value
 * (with its body rendered), its links, and its problems. A pure function of
 * (kind, source), so the build may compute it in a worker or take it from
 * the cache; the result is plain data that survives structured cloning.
 */
export interface DocumentRecord<T = unknown> {
  kind: DocumentKind;
  file: string;
  read: Read<T> | null;
  problems: Problem[];
  /** A post's digest of its read value, made where it was read (emit/post-digest.ts). */
  digest?: PostDigest;
}

export function readDocument(kind: DocumentKind, source: Source): DocumentRecord {
  const problems: Problem[] = [];
  const doc = parseFrontMatter(source, problems);
  let read: Read<unknown> | null = null;
  const deep = doc && tooDeep(doc);
  if (deep) problems.push(deep);
  else if (doc) {
    try {
      if (kind === 'profile') read = readProfile(doc, problems);
      else if (kind === 'service') read = readService(doc, baseName(source.file), problems);
      else if (kind === 'post') read = readPost(doc, baseName(source.file), problems);
      else read = readProject(doc, baseName(source.file), problems);
    } catch (error) {
      // Some other structure nested deep enough to overflow the Markdown parser's stack.
      if (!(error instanceof RangeError)) throw error;
      problems.push({ file: source.file, line: doc.bodyLine, column: 1, message: `The Markdown body cannot be rendered: ${error.message}.`, hint: 'Look for brackets, emphasis, quotes or lists nested hundreds of levels deep, usually a pasting accident, and flatten them.' });
    }
  }
  return { kind, file: source.file, read, problems };
}
