// The search index (D12), built once per build from the site model and
// written to dist/_folio/search-index.json; the functions load it on the
// first search. Build-only: node:crypto and the Orama insert path stay here.
import { createHash } from 'node:crypto';
import { insert, save } from '@orama/orama';
import { SEARCH_INDEX_PATH } from '../core/files.js';
import type { Site } from '../core/model.js';
import { postItem, projectItem, serviceResource } from '../core/resources.js';
import { SEARCH_INDEX_FORMAT, SEARCH_INDEX_VERSION, type SearchIndexData, type StoredDoc } from '../core/search/format.js';
import { createSearchDb, splitWords, WORD_SPLIT, type SearchDocument } from '../core/search/orama.js';
import { vocabularyOf } from '../core/search/typo.js';
import type { SearchType } from '../core/runtime.js';
import type { OutputFile } from './atomic.js';

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

/** Every post, project and service as a search document, in the order of the site model. */
export function searchDocuments(site: Site): SearchDocument[] {
  const base = site.config.site_url;
  const relative = (url: string) => (url.startsWith(base) ? url.slice(base.length) : url);
  const doc = (type: SearchType, id: string, title: string, summary: string, tags: string[], body: string, url: string, apiUrl: string): SearchDocument => ({
    id: `${type}:${id}`,
    title,
    summary,
    tags: tags.join(' '),
    body,
    stored: [type, id, title, summary, relative(url), relative(apiUrl), body] satisfies StoredDoc,
  });
  return [
    ...site.posts.map((p) => {
      const item = postItem(site, p);
      return doc('post', p.slug, p.title, p.summary, p.tags, plainText(p.content_markdown), item.url, item.api_url);
    }),
    ...site.projects.map((p) => {
      const item = projectItem(site, p);
      return doc('project', p.id, p.title, p.summary, [...p.tags, p.status], plainText(p.body_markdown), item.url, item.api_url);
    }),
    ...site.services.map((s) => {
      const item = serviceResource(site, s);
      const body = [plainText(s.body_markdown), ...s.best_fit].join('\n');
      return doc('service', s.id, s.title, s.summary, [], body, item.url, item.api_url);
    }),
  ];
}

/** The text of the index file: versioned, with a SHA-256 of its data. */
export function buildSearchIndex(site: Site): string {
  const db = createSearchDb();
  const documents = searchDocuments(site);
  const words = new Set<string>();
  for (const d of documents) {
    insert(db, d as never);
    for (const text of [d.title, d.summary, d.tags, d.body]) for (const w of splitWords(text).split(WORD_SPLIT)) words.add(w);
  }
  const data: SearchIndexData = { site_url: site.config.site_url, orama: save(db) as never, vocabulary: vocabularyOf(words) };
  const dataText = JSON.stringify(data);
  const hash = `sha256:${createHash('sha256').update(dataText).digest('hex')}`;
  // Written around the data's own text, so the hash covers exactly those bytes.
  return `{"format":${JSON.stringify(SEARCH_INDEX_FORMAT)},"version":${SEARCH_INDEX_VERSION},"hash":"${hash}","documents":${documents.length},"data":${dataText}}\n`;
}

/** Registered in build.ts's `artifacts`. */
export function searchIndexArtifact(site: Site): OutputFile[] {
  return [{ path: SEARCH_INDEX_PATH, body: buildSearchIndex(site) }];
}
