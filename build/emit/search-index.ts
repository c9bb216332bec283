// The search index (D12), built once per build from the site model and
// written to dist/_folio/search-index.json; the functions load it on the
// first search. Build-only: node:crypto and the Orama insert path stay here.
// On a large site it is built on a thread of its own (search-worker.ts),
// started with the build's responses rather than after them, so the two overlap.
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { insert, save } from '@orama/orama';
import { SEARCH_INDEX_PATH, type Manifest } from '../core/files.js';
import type { Site } from '../core/model.js';
import { postItem, projectItem, serviceResource } from '../core/resources.js';
import { SEARCH_INDEX_FORMAT, SEARCH_INDEX_VERSION, type SearchIndexData, type StoredDoc } from '../core/search/format.js';
import { createSearchDb, splitWords, WORD_SPLIT, type SearchDocument } from '../core/search/orama.js';
import { searchShards } from '../core/search/shards.js';
import { vocabularyOf } from '../core/search/typo.js';
import type { SearchType } from '../core/runtime.js';
import type { OutputFile } from './atomic.js';
import { workerScript } from './workers.js';

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

/** Every post, project and service to index, in the order of the site model (cheap: no text is reduced here). */
export function searchSources(site: Site): SearchSource[] {
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
    url: string,
    apiUrl: string,
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
    api_url: relative(apiUrl),
  });
  return [
    ...site.posts.map((p) => {
      const item = postItem(site, p);
      return source('post', p.slug, p.title, p.summary, p.tags, p.content_markdown, [], item.url, item.api_url);
    }),
    ...site.projects.map((p) => {
      const item = projectItem(site, p);
      return source('project', p.id, p.title, p.summary, [...p.tags, p.status], p.body_markdown, [], item.url, item.api_url);
    }),
    ...site.services.map((s) => {
      const item = serviceResource(site, s);
      return source('service', s.id, s.title, s.summary, [], s.body_markdown, s.best_fit, item.url, item.api_url);
    }),
  ];
}

/** A source as the index stores it: the body as plain text (a service's best-fit list counts as body). */
function toDocument(s: SearchSource): SearchDocument {
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

/**
 * The index file: versioned, with a SHA-256 of its data, as UTF-8 bytes.
 * search-worker.ts runs it too. Each source is let go once indexed (`sources`
 * is emptied): on the thread, that copy of every post's Markdown was the
 * largest thing held while the index was saved (the peak of memory).
 */
export function indexBytes(sources: (SearchSource | undefined)[], siteUrl: string, build: string): SearchFiles {
  const db = createSearchDb();
  const words = new Set<string>();
  for (let i = 0; i < sources.length; i++) {
    const d = toDocument(sources[i]!);
    sources[i] = undefined;
    insert(db, d as never);
    for (const text of [d.title, d.summary, d.tags, d.body]) for (const w of splitWords(text).split(WORD_SPLIT)) words.add(w);
  }
  const data: SearchIndexData = { site_url: siteUrl, orama: save(db) as never, vocabulary: vocabularyOf(words) };
  // The functions read these shards; the whole file stays the index of record.
  const shards = searchShards(data, build);
  const dataText = JSON.stringify(data);
  const hash = `sha256:${createHash('sha256').update(dataText).digest('hex')}`;
  // Written around the data's own text, so the hash covers exactly those bytes;
  // encoded straight into one buffer rather than through a second whole string.
  const head = `{"format":${JSON.stringify(SEARCH_INDEX_FORMAT)},"version":${SEARCH_INDEX_VERSION},"hash":"${hash}","documents":${sources.length},"data":`;
  const tail = '}\n';
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(head) + Buffer.byteLength(dataText) + tail.length);
  let at = bytes.write(head);
  at += bytes.write(dataText, at);
  bytes.write(tail, at);
  return { bytes, shards };
}

/** The index file and its shards (core/search/shards.ts). */
export interface SearchFiles {
  bytes: Uint8Array;
  shards: { path: string; body: string }[];
}

/** The index file for a site, on this thread. */
export function buildSearchIndex(site: Site, build = ''): Uint8Array {
  return indexBytes(searchSources(site), site.config.site_url, build).bytes;
}

/** Below this many documents a thread costs more to start than the index takes to build. */
const MIN_DOCUMENTS_FOR_THREAD = 300;

/** What the search worker answers. */
export type SearchWorkerReply = SearchFiles | { error: string };

function onThread(script: string, sources: SearchSource[], siteUrl: string, build: string): Promise<SearchFiles> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { sources, siteUrl, build } });
    worker.once('message', (reply: SearchWorkerReply) => {
      void worker.terminate();
      if ('bytes' in reply) resolve(reply);
      else reject(new Error(`The search index thread failed: ${reply.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The search index thread stopped (exit code ${code}) before it answered.`)));
  });
}

/** The index of one build, being made on its own thread while emit() asks for the responses (on a small site, nothing: the artifact makes it). */
export interface PreparedSearch {
  build: string;
  /** The thread's answer, handed over once: the artifact lets it go when written (at 10,000 posts it is tens of MB). */
  take(): Promise<SearchFiles> | null;
  /** Resolves once the thread, if one runs, has answered or failed (the artifact reports a failure). */
  settled(): Promise<void>;
}

/**
 * Starts building the site's index on a thread of its own, so that it is
 * made while the build asks for the responses; searchIndexArtifact then
 * takes the result. Small sites, and folio run from its TypeScript sources
 * without the compiled worker, build it on this thread when it is asked for.
 */
export function prepareSearchIndex(site: Site, build: string): PreparedSearch {
  const script =
    site.posts.length + site.projects.length + site.services.length >= MIN_DOCUMENTS_FOR_THREAD ? workerScript('search-worker') : null;
  const files = script ? onThread(script, searchSources(site), site.config.site_url, build) : null;
  // Handled when the artifact awaits it; never an unhandled rejection before then.
  files?.catch(() => undefined);
  let held = files;
  const take = () => {
    const taken = held;
    held = null;
    return taken;
  };
  return { build, take, settled: async () => void (await held?.catch(() => undefined)) };
}

/** Registered in emit/artifacts.ts: the index emit() prepared, or made here. */
export async function searchIndexArtifact(
  site: Site,
  manifest: Manifest,
  _options: unknown,
  { search: prepared }: { search: PreparedSearch },
): Promise<OutputFile[]> {
  const { bytes, shards } =
    (prepared.build === manifest.build ? await prepared.take() : null) ??
    indexBytes(searchSources(site), site.config.site_url, manifest.build);
  return [{ path: SEARCH_INDEX_PATH, body: bytes }, ...shards];
}
