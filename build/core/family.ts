// A route family answers one part of the address space (the API, the pages,
// the machine-readable documents, MCP). respond() asks each of its runtime's
// in turn (families.ts); the build asks each for the requests it can answer
// ahead of time.
import type { Reply, Req } from './http.js';
import type { SiteModel } from './site-model.js';
import type { Runtime } from './runtime.js';

export interface Family {
  name: string;
  /** The reply, or null when the path is not this family's. */
  respond(req: Req, rt: Runtime): Reply | null | Promise<Reply | null>;
  /** Every GET target (path and query) this family answers ahead of time. */
  enumerate(model: SiteModel): string[];
  /**
   * Of its targets, those that list some posts but not all (`targets`), and
   * of them the ones that show the posts at `posts`, indexes in
   * `site.posts` (`showing`). After an edit of a field lists show that keeps
   * the order and the tags, the build asks only those again; a family
   * without it may show any post in any target.
   */
  listings?(model: SiteModel, posts: readonly number[]): Listings;
}

export interface Listings {
  targets: string[];
  showing: string[];
}
