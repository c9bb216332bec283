// The API shapes of each record (D5, D6). MCP's structuredContent uses the same functions.
import type { Post, Profile, Project, Service, Site } from './model.js';
import { links, pagePath } from './urls.js';

export function profileResource(site: Site, p: Profile) {
  return {
    ...p.extra,
    name: p.name,
    headline: p.headline,
    location: p.location,
    expertise: p.expertise,
    availability: p.availability,
    contact: p.contact,
    bio_markdown: p.bio_markdown,
    photo_url: p.photo_url,
    photo_alt: p.photo_alt,
    ...links(site, pagePath.about(), '/profile'),
  };
}

export function serviceResource(site: Site, s: Service) {
  return {
    ...s.extra,
    id: s.id,
    title: s.title,
    summary: s.summary,
    best_fit: s.best_fit,
    order: s.order,
    content_markdown: s.body_markdown,
    ...links(site, pagePath.service(s.id), `/services/${s.id}`),
  };
}

export function postItem(site: Site, p: Post) {
  return {
    ...p.extra,
    slug: p.slug,
    title: p.title,
    summary: p.summary,
    date: p.date,
    updated: p.updated,
    tags: p.tags,
    reading_time_minutes: p.reading_time_minutes,
    ...links(site, pagePath.post(p.slug), `/posts/${p.slug}`),
  };
}

export function postResource(site: Site, p: Post) {
  return { ...postItem(site, p), content_markdown: p.content_markdown };
}

export function projectItem(site: Site, p: Project) {
  return {
    ...p.extra,
    id: p.id,
    title: p.title,
    status: p.status,
    summary: p.summary,
    // The front-matter `url` is the project's own website; `url` in the API is its page here (D5).
    website: p.url,
    started: p.started,
    ended: p.ended,
    tags: p.tags,
    ...links(site, pagePath.project(p.id), `/projects/${p.id}`),
  };
}

export function projectResource(site: Site, p: Project) {
  return { ...projectItem(site, p), content_markdown: p.body_markdown };
}
