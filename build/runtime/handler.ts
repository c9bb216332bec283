// The host-neutral function: precomputed files first (query strings and
// Accept mapped by the core's rule), respond() for everything else. Cloudflare,
// Netlify, Vercel and `folio serve` wrap it in a few lines each.
import { CHANGES_PATH, MANIFEST_PATH, SITE_PATH, type Manifest } from '../core/files.js';
import { internalError } from '../core/errors.js';
import type { Reply, Req } from '../core/http.js';
import type { ChangeLog, Site } from '../core/model.js';
import { finish, respond } from '../core/respond.js';
import type { Runtime, SearchEngine } from '../core/runtime.js';
import { SiteModel } from '../core/site-model.js';
import { staticTarget } from '../core/static.js';
import type { ReadAsset } from './search.js';

export type { ReadAsset };

export interface HandlerOptions {
  /** Opens the prebuilt search index, given the asset reader (default: dist/_folio/search-index.json). */
  openSearch?: (read: ReadAsset) => Promise<SearchEngine>;
}

const decoder = new TextDecoder();

/**
 * The prebuilt index (D12), read through the host's asset reader. The engine
 * and Orama are imported here, on the first search, not when the function
 * starts (./search.ts): most requests never search. Hosts bundle the function
 * into one script; the import() keeps that chunk from being evaluated until
 * it is needed.
 */
export async function openSearch(read: ReadAsset): Promise<SearchEngine> {
  const { openSearch: open } = await import('./search.js');
  return open(read);
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    // A failed load is retried on the next request rather than cached.
    value ??= load().catch((error) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}

async function readJson<T>(read: ReadAsset, path: string): Promise<T> {
  const bytes = await read(path);
  if (!bytes) throw new Error(`${path} is missing from the deployed files; run \`folio build\` and deploy all of dist/.`);
  return JSON.parse(decoder.decode(bytes)) as T;
}

export function createHandler(read: ReadAsset, options: HandlerOptions = {}): (req: Req) => Promise<Reply> {
  // The model's indexes are built as requests read them, and kept with it for the life of the isolate.
  const site = once(async () => new SiteModel(await readJson<Site>(read, SITE_PATH)));
  const manifest = once(() => readJson<Manifest>(read, MANIFEST_PATH));
  // Loaded on the first search and kept for the life of the isolate.
  const search = once(() => (options.openSearch ?? openSearch)(read));
  const changes = once(() => readJson<ChangeLog>(read, CHANGES_PATH));
  return async (req) => {
    // A GET needs both the model and the manifest: read them together (on
    // Netlify and Vercel each read is a request to the site's own CDN).
    const pending = req.method === 'GET' || req.method === 'HEAD' ? manifest() : null;
    pending?.catch(() => {}); // reported below, once the model is there
    let model: SiteModel;
    try {
      model = await site();
    } catch (error) {
      console.error('folio: cannot load the site model:', error);
      return internalError(null);
    }
    if (pending) {
      try {
        const map = await pending;
        const target = staticTarget(req, model.site, map);
        const route = target ? map.routes[target] : undefined;
        const body = route ? await read(route[0]) : null;
        if (route && body) return finish(req, { status: 200, headers: { ...map.header_sets[route[1]]! }, body });
      } catch (error) {
        // Without the manifest every request is still answered by respond().
        console.error('folio: cannot use the precomputed files:', error);
      }
    }
    const runtime: Runtime = { site: model.site, model, search, changes };
    return respond(req, runtime);
  };
}
