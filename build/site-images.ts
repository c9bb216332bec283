// Resolved images into the model (D44, D45), pure: each record's placeholder
// HTML takes the fingerprinted addresses and srcset, its stored Markdown the
// absolute URL of each original, a post its first raster image and the
// profile its photo. A record without local images keeps its identity.
import { finishHtml, finishMarkdown, imageAttributes, type MediaImage } from './content/image-refs.js';
import type { Read } from './content/kinds.js';
import { isCardImage } from './core/media-types.js';
import type { Post, Profile, Project, Service } from './core/model.js';

/** What the build made of each image, by the file that names it and the path as written. */
export type ImageTable = ReadonlyMap<string, MediaImage>;

export function imageKey(file: string, src: string): string {
  return `${file}\0${src}`;
}

/** How wide the profile photo is shown on the home and about pages. */
const PHOTO_SIZES = '8rem';

function resolve(read: Read<unknown>, table: ImageTable | undefined, siteUrl: string) {
  const { images } = read;
  const body = images.filter((i) => i.field === 'body');
  const found = body.map((i) => table?.get(imageKey(i.file, i.src)));
  const urls = found.map((m) => m && `${siteUrl}${m.url}`);
  // The body's site-root links become absolute in the same pass (D53; site-absolute.ts for bodies without images).
  const offsets = read.links.flatMap((l) => (l.offset === undefined ? [] : [l.offset]));
  return {
    html: (html: string) => finishHtml(html, body, found),
    markdown: (md: string) => finishMarkdown(md, body, urls, offsets, siteUrl),
    // The card image (D50): link previews do not show SVG, so a post's first raster image.
    first: body.flatMap((ref, i) =>
      found[i] && ref.label === undefined && isCardImage(found[i].url) ? [{ ref, image: found[i] }] : [],
    )[0],
    photo: images.find((i) => i.field === 'photo'),
  };
}

export function postWithImages(read: Read<Post>, table: ImageTable | undefined, siteUrl: string): Post {
  const p = read.value;
  if (!read.images.length) return p;
  const r = resolve(read, table, siteUrl);
  const first = r.first && {
    url: `${siteUrl}${r.first.image.url}`,
    alt: r.first.ref.alt,
    width: r.first.image.width,
    height: r.first.image.height,
  };
  return {
    ...p,
    html: p.html === undefined ? undefined : r.html(p.html),
    content_markdown: r.markdown(p.content_markdown),
    image: first ?? null,
  };
}

export function projectWithImages(read: Read<Project>, table: ImageTable | undefined, siteUrl: string): Project {
  const p = read.value;
  if (!read.images.length) return p;
  const r = resolve(read, table, siteUrl);
  return { ...p, html: p.html === undefined ? undefined : r.html(p.html), body_markdown: r.markdown(p.body_markdown) };
}

export function serviceWithImages(read: Read<Service>, table: ImageTable | undefined, siteUrl: string): Service {
  const s = read.value;
  if (!read.images.length) return s;
  const r = resolve(read, table, siteUrl);
  return { ...s, body_html: s.body_html === undefined ? undefined : r.html(s.body_html), body_markdown: r.markdown(s.body_markdown) };
}

export function profileWithImages(read: Read<Profile>, table: ImageTable | undefined, siteUrl: string): Profile {
  const p = read.value;
  if (!read.images.length) return p;
  const r = resolve(read, table, siteUrl);
  const photo = r.photo && table?.get(imageKey(r.photo.file, r.photo.src));
  return {
    ...p,
    bio_html: p.bio_html === undefined ? undefined : r.html(p.bio_html),
    bio_markdown: r.markdown(p.bio_markdown),
    photo_url: photo ? `${siteUrl}${photo.url}` : null,
    photo_attributes: photo ? imageAttributes(photo, PHOTO_SIZES) : undefined,
  };
}
