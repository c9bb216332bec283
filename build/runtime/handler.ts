// The host-neutral function: precomputed files first (query strings and
// Accept mapped by the core's rule over the sharded route table), respond()
// for everything else, with the model's head and the precomputed records,
// chunks and shards of runtime/edge.ts (D38, D55). Cloudflare, Netlify,
// Vercel and `folio serve` wrap it in a few lines each.
import { apiFamily } from '../core/api/index.js';
import { internalError } from '../core/errors.js';
import type { Family } from '../core/family.js';
import type { Reply, Req } from '../core/http.js';
import { finish, respond } from '../core/respond.js';
import type { Runtime, SearchEngine } from '../core/runtime.js';
import { SiteModel } from '../core/site-model.js';
import { KeptFiles } from '../core/kept-files.js';
import { assetData, headSite, KEEP_EDGE_BYTES, readChanges, readHead, type ReadAsset } from './edge.js';

export type { ReadAsset };

export interface HandlerOptions {
  /** Opens the deployment's search shards, given the asset reader and the tag the head names for them (default: runtime/search.ts). */
  openSearch?: (read: ReadAsset, tag: string) => Promise<SearchEngine>;
}

/**
 * The sharded index (D12), read through the host's asset reader. The engine
 * is imported here, on the first search, not when the function starts
 * (./search.ts): most requests never search. Hosts bundle the function into
 * one script; the import() keeps that chunk from being evaluated until it is
 * needed.
 */
export async function openSearch(read: ReadAsset, tag: string): Promise<SearchEngine> {
  const { openSearch: open } = await import('./search.js');
  return open(read, tag);
}

/**
 * The families the functions ask after MCP: the API's alone. The documents and
 * the pages answer only from the whole model, and their every answer is a
 * precomputed file (core/families.ts); leaving them out keeps their code out
 * of the functions' bundle, which a host parses on every cold start.
 */
const FUNCTION_FAMILIES: readonly Family[] = [apiFamily];

export function createHandler(read: ReadAsset, options: HandlerOptions = {}): (req: Req) => Promise<Reply> {
  // The head it parsed and the route shards and chunks it read, kept between the requests of an isolate.
  const kept = new KeptFiles(KEEP_EDGE_BYTES);
  // The engine of one search head, kept for the life of the isolate; another (folio dev's next build) opens its own.
  let engine: { tag: string; value: Promise<SearchEngine> } | null = null;
  const search = (tag: string) => {
    if (engine?.tag !== tag) {
      const value = (options.openSearch ?? openSearch)(read, tag);
      // A failed open is retried on the next search rather than kept.
      value.catch(() => engine?.value === value && (engine = null));
      engine = { tag, value };
    }
    return engine.value;
  };
  return async (req) => {
    // The head is read on every request (small, and always of the files deployed now);
    // the files it names by their tags may be kept from an earlier request.
    let rt: Runtime;
    try {
      const head = await readHead(read, kept);
      const site = headSite(head);
      let model: SiteModel | undefined;
      rt = {
        site,
        // The model over the head alone: no family that reads its indexes is asked here (D55), so none is
        // built. Made on first read, since most answers (MCP, a precomputed file) never read it, and its
        // class's code is compiled when it is first made, on the first request of an isolate.
        get model() {
          return (model ??= new SiteModel(site));
        },
        families: FUNCTION_FAMILIES,
        data: assetData(head, read, kept),
        search: () => search(head.tags.search),
        changes: () => readChanges(read, kept, head.tags.changes),
      };
    } catch (error) {
      console.error('folio: cannot read the deployment head:', error);
      return finish(req, internalError(null, error));
    }
    try {
      const reply = await rt.data.file(req);
      if (reply) return finish(req, reply);
    } catch (error) {
      console.error(`folio: ${req.method} ${req.path}: cannot use the precomputed files:`, error);
      return finish(req, internalError(rt.site, error));
    }
    return respond(req, rt);
  };
}
