// What the search index (D12) is made of: one source per post, project and
// service, in the order of the site model, and the document the index
// stores for each (its body reduced to plain text).
import type { Site } from '../core/model.js';
import { projectItem, serviceResource } from '../core/resources.js';
import { links, pagePath } from '../core/urls.js';
import type { StoredDoc } from '../core/search/format.js';
import type { SearchDocument } from '../core/search/orama.js';
import type { SearchType } from '../core/runtime.js';

/**
 * Markdown to plain text, one block per line. Line-based on purpose: the
 * model's `text` joins blocks without a space ("…domain.Lesson 1",
 * "item oneitem two"), which would glue words together in the index.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^\s*(`{3,}|~{3,}).*$/gm, '') // code fences (the code stays)
    .replace(/^\s*\[\^[^\]]+\]:\s*/gm, '') // footnote definitions
    .replace(/\[\^[^\]]+\]/g, '') // footnote references
    .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, '') // link definitions
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1') // reference links
    .replace(/<(https?:[^>]+)>/g, '$1') // autolinks
    .replace(/<\/?[a-z][^>]*>/gi, ' ') // raw HTML tags
    .replace(/^\s{0,3}#{1,6}\s+/gm, '') // headings
    .replace(/^\s*>\s?/gm, '') // block quotes
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, '') // list items and task boxes
    .replace(/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '') // table rules
    .replace(/^\s*[-*_]{3,}\s*$/gm, '') // thematic breaks
    .replace(/\s*\|\s*/g, ' ') // table cells
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2') // strong, strikethrough
    .replace(/(^|[\s(])[*_](?=\S)([^*_\n]*?\S)[*_](?=[\s).,;:!?]|$)/gm, '$1$2') // emphasis
    .replace(/`([^`]*)`/g, '$1') // inline code
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** A search document before its body is reduced to plain text: what the search worker is sent. */
export type SearchSource = Omit<SearchDocument, 'body' | 'stored'> & {
  type: SearchType;
  key: string;
  markdown: string;
  extra: string[];
  url: string;
  api_url: string;
};

/** A source a patch job keeps as the previous build indexed it: its place, and its tags for the files of stored documents. */
export type KeptSource = Pick<SearchSource, 'id' | 'type' | 'key' | 'tags'>;

/** Whether a source is whole, rather than one a patch job keeps. */
export const isWhole = (s: SearchSource | KeptSource): s is SearchSource => 'markdown' in s;

/** Every post, project and service to index, in the order of the site model (cheap: no text is reduced here). */
export function searchSources(site: Site): SearchSource[];
/**
 * The same, but those `kept` names reduced to a KeptSource: after an edit,
 * no other post's summary or body is read (a cached post keeps them in its
 * record file, record-shard.ts).
 */
export function searchSources(site: Site, kept: (type: SearchType, key: string) => boolean): (SearchSource | KeptSource)[];
export function searchSources(site: Site, kept?: (type: SearchType, key: string) => boolean): (SearchSource | KeptSource)[] {
  const reduced = (type: SearchType, key: string, tags: readonly string[]): KeptSource | null =>
    kept?.(type, key) ? { id: `${type}:${key}`, type, key, tags: tags.join(' ') } : null;
  const base = site.config.site_url;
  const relative = (url: string) => (url.startsWith(base) ? url.slice(base.length) : url);
  const source = (
    type: SearchType,
    key: string,
    title: string,
    summary: string,
    tags: string[],
    markdown: string,
    extra: string[],
    { url, api_url }: { url: string; api_url: string },
  ): SearchSource => ({
    id: `${type}:${key}`,
    type,
    key,
    title,
    summary,
    tags: tags.join(' '),
    markdown,
    extra,
    url: relative(url),
    api_url: relative(api_url),
  });
  return [
    ...site.posts.map(
      (p) =>
        reduced('post', p.slug, p.tags) ??
        source('post', p.slug, p.title, p.summary, p.tags, p.content_markdown, [], links(site, pagePath.post(p.slug), `/posts/${p.slug}`)),
    ),
    ...site.projects.map((p) => {
      const tags = [...p.tags, p.status];
      return reduced('project', p.id, tags) ?? source('project', p.id, p.title, p.summary, tags, p.body_markdown, [], projectItem(site, p));
    }),
    ...site.services.map(
      (s) =>
        reduced('service', s.id, []) ??
        source('service', s.id, s.title, s.summary, [], s.body_markdown, s.best_fit, serviceResource(site, s)),
    ),
  ];
}

/** A source as the index stores it: the body as plain text (a service's best-fit list counts as body). */
export function toDocument(s: SearchSource): SearchDocument {
  const body = [plainText(s.markdown), ...s.extra].join('\n');
  return {
    id: s.id,
    title: s.title,
    summary: s.summary,
    tags: s.tags,
    body,
    stored: [s.type, s.key, s.title, s.summary, s.url, s.api_url, body] satisfies StoredDoc,
  };
}
