// Fragments several pages share, each with its HTML and its Markdown form.
import { mdLink, mdText } from '../markdown-text.js';
import type { Post, Project, ProjectStatus, Site } from '../model.js';
import type { SiteModel } from '../site-model.js';
import { absolute, pagePath, twinPath } from '../urls.js';
import { Html, html, plural, safeHref, time } from './html.js';

export const STATUS_LABEL: Record<ProjectStatus, string> = { live: 'Live', delivered: 'Delivered', sunset: 'Sunset' };

export const STATUS_MEANING: Record<ProjectStatus, string> = {
  live: 'Running and maintained today.',
  delivered: 'Client work, handed over to the team that owns it now.',
  sunset: 'Retired; kept here as a record of what it did and why it stopped.',
};

export function statusBadge(status: ProjectStatus): Html {
  return html`<span class="badge badge-${status}">${STATUS_LABEL[status]}</span>`;
}

/** Tags as links to their pages; a tag no published post carries has no page, so it stays text. */
export function tagLinks(model: SiteModel, tags: readonly string[]): Html {
  if (!tags.length) return html``;
  const { known } = model.lists;
  return html`<ul class="tags" aria-label="Tags">${tags.map((t) => html`<li>${known.has(t) ? html`<a href="${pagePath.tag(t)}">${t}</a>` : html`<span>${t}</span>`}</li>`)}</ul>`;
}

export function postMeta(post: Post): Html {
  return html`<p class="meta">${time(post.date)}${post.updated ? html` · updated ${time(post.updated)}` : ''} · ${plural(post.reading_time_minutes, 'minute')} read</p>`;
}

function postItem(model: SiteModel, post: Post, headingLevel: 2 | 3): string {
  const h =
    headingLevel === 2
      ? html`<h2><a href="${pagePath.post(post.slug)}">${post.title}</a></h2>`
      : html`<h3><a href="${pagePath.post(post.slug)}">${post.title}</a></h3>`;
  return html`<li>
<article class="post-item">
${h}
${postMeta(post)}
<p>${post.summary}</p>
${tagLinks(model, post.tags)}
</article>
</li>
`.value;
}

/** A list of posts: title, date, reading time, summary, tags (each item made once per model, SiteModel.lists). */
export function postList(model: SiteModel, posts: readonly Post[], headingLevel: 2 | 3 = 2): Html {
  const items = model.lists.items[headingLevel - 2];
  let out = '<ol class="post-list">\n';
  for (const post of posts) {
    let item = items.get(post);
    if (item === undefined) items.set(post, (item = postItem(model, post, headingLevel)));
    out += item;
  }
  // Every item was made by html``, so the list is markup as it stands.
  return new Html(`${out}</ol>`);
}

export function postListMarkdown(model: SiteModel, posts: readonly Post[]): string {
  const { site } = model;
  const { lines } = model.lists;
  return posts
    .map((p) => {
      let line = lines.get(p);
      if (line === undefined)
        lines.set(
          p,
          (line = `- ${mdLink(p.title, absolute(site, twinPath(pagePath.post(p.slug))))} (${p.date}${p.tags.length ? `; ${p.tags.map(mdText).join(', ')}` : ''})${p.summary ? `: ${mdText(p.summary)}` : ''}`),
        );
      return line;
    })
    .join('\n');
}

export function projectPeriod(project: Project): string | null {
  if (!project.started) return null;
  return `${project.started} – ${project.ended ?? 'today'}`;
}

export function projectCard(model: SiteModel, project: Project, headingLevel: 2 | 3 = 3): Html {
  const title = html`<a href="${pagePath.project(project.id)}">${project.title}</a>`;
  return html`<article class="card project-card">
${headingLevel === 2 ? html`<h2>${title}</h2>` : html`<h3>${title}</h3>`}
<p class="meta">${statusBadge(project.status)}${project.started ? html` · ${periodHtml(project)}` : ''}</p>
<p>${project.summary}</p>
${tagLinks(model, project.tags)}
</article>`;
}

export function periodHtml(project: Project): Html {
  if (!project.started) return html``;
  return html`${time(project.started)} – ${project.ended ? time(project.ended) : 'today'}`;
}

export function projectListMarkdown(site: Site, projects: readonly Project[]): string {
  return projects
    .map((p) => `- ${mdLink(p.title, absolute(site, twinPath(pagePath.project(p.id))))} (${p.status}): ${mdText(p.summary)}`)
    .join('\n');
}

/** An external link if the URL is safe to link, otherwise the text alone (D24). */
export function externalLink(url: string, text: string = url): Html {
  const href = safeHref(url);
  return href ? html`<a href="${href}">${text}</a>` : html`${text}`;
}
