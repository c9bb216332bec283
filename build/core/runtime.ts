// What respond() is given: the site model and lazy access to the search index.
import type { Site } from './model.js';

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
  /** Loads the prebuilt index on first use and keeps it for the life of the process or isolate. */
  search(): Promise<SearchEngine>;
}
