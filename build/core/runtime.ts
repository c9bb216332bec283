// What respond() is given: the site model (whole at build time, only its head
// in the functions, D55), lookups that answer from the model or from the
// precomputed files, and lazy access to the search index and the change log.
import type { Family } from './family.js';
import type { Reply, Req } from './http.js';
import type { ChangeLog, Site } from './model.js';
import type { SiteModel } from './site-model.js';

export type SearchType = 'post' | 'project' | 'service';

export interface SearchHit {
  type: SearchType;
  id: string;
  title: string;
  summary: string;
  url: string;
  /** The page's Markdown twin, as the post list gives it. */
  markdown_url: string;
  api_url: string;
  snippet: string;
  score: number;
}

export interface SearchEngine {
  search(query: string, limit: number): { total: number; hits: SearchHit[] } | Promise<{ total: number; hits: SearchHit[] }>;
}

/** A JSON record as the API answers it (a post list item, a post, a project). */
export type JsonRecord = { [key: string]: unknown };

/**
 * What the answers the build could not enumerate read (D38, D55): from the
 * whole model at build time (core/data.ts), from precomputed records, chunks
 * and shards in the functions (runtime/edge.ts). Both give the same answers.
 */
export interface SiteData {
  /** The precomputed answer to a GET or HEAD request, without its ETag; null when only respond() can answer it (always, at build time). */
  file(req: Req): Promise<Reply | null>;
  /** Posts (or one tag's posts) as list items, newest first: `limit` from `offset`, and how many there are in all. */
  posts(tag: string | undefined, offset: number, limit: number): Promise<{ total: number; items: JsonRecord[] }>;
  /** One published post's API resource (with `content_markdown`), or undefined. */
  post(slug: string, version: string): Promise<JsonRecord | undefined>;
  /** One project's API resource, or undefined. */
  project(id: string, version: string): Promise<JsonRecord | undefined>;
  /** The Markdown twin of a page path ("/about", "/blog/a-post"), or null when there is no such page. */
  twin(page: string): Promise<string | null>;
  /** The Markdown twin of the post whose twin URL is `uri` (an MCP resource), or null. */
  postTwin(uri: string): Promise<string | null>;
  /** The not-found page (D23), in HTML or Markdown. */
  notFound(markdown: boolean): Promise<string>;
}

export interface Runtime {
  /**
   * The model. In the functions only its head is there (config, versions,
   * built_at, profile, services); reading any other part throws, so an answer that
   * needs more comes from `data` or was precomputed (D55).
   */
  site: Site;
  /** The model with its indexes (posts by slug and tag, related posts, the page table, the twins), each built when first read. Its `site` is `site`. */
  model: SiteModel;
  /**
   * The families respond() asks after MCP, in order: all of them in the build
   * (families.ts); in the functions the API's alone, since the others answer
   * only from the whole model and their every answer is a precomputed file.
   */
  families: readonly Family[];
  data: SiteData;
  /** Loads the prebuilt index on first use and keeps it for the life of the process or isolate. */
  search(): Promise<SearchEngine>;
  /** The change log (D61), apart from the model: the functions read only it to answer a `since`. */
  changes(): Promise<ChangeLog>;
}
