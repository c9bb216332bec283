// What respond() is given: the site model, and lazy access to the search index
// and the change log.
import type { ChangeLog, Site } from './model.js';
import type { SiteModel } from './site-model.js';

export type SearchType = 'post' | 'project' | 'service';

export interface SearchHit {
  type: SearchType;
  id: string;
  title: string;
  summary: string;
  url: string;
  api_url: string;
  snippet: string;
  score: number;
}

export interface SearchEngine {
  search(query: string, limit: number): { total: number; hits: SearchHit[] };
}

export interface Runtime {
  site: Site;
  /** The model with its indexes (posts by slug and tag, related posts, the page table, the twins), each built when first read. Its `site` is `site`. */
  model: SiteModel;
  /** Loads the prebuilt index on first use and keeps it for the life of the process or isolate. */
  search(): Promise<SearchEngine>;
  /** The change log (D61), apart from the model: the functions read only it to answer a `since`. */
  changes(): Promise<ChangeLog>;
}
