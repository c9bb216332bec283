// folio on Cloudflare Pages: one host-neutral handler per isolate, reading the
// files of dist/ through the ASSETS binding (D38): the head, the route shards
// and the records a request needs, never the whole model or manifest (D55).
// The route files next to this folder are a few lines each; this module has
// no onRequest export, so Pages does not route to it.
import { toReq, toResponse } from '../../build/runtime/fetch.js';
import { createHandler, createPrecomputed, keptFiles, type Prior, type ReadAsset } from '../../build/runtime/handler.js';

/** The slice of Pages' EventContext folio uses (no @cloudflare/workers-types needed). */
export interface Context {
  request: Request;
  env: { ASSETS: { fetch(input: URL | Request | string, init?: RequestInit): Promise<Response> } };
  next(input?: Request | string, init?: RequestInit): Promise<Response>;
  /** Shared by the middleware and the route function of one request. */
  data?: Record<string, unknown>;
}

/** Where the middleware leaves what it found for the route function (context.data). */
const PRIOR = 'folio';

let assets: Context['env']['ASSETS'] | undefined;
let origin = 'https://folio.invalid';

/**
 * The URL at which Pages' asset server answers a dist file with 200: it
 * serves `a/index.html` at `a/` and `a.html` at `a`, and redirects otherwise.
 */
export function assetUrl(file: string): string {
  const path =
    file === 'index.html'
      ? ''
      : file.endsWith('/index.html')
        ? file.slice(0, -'index.html'.length)
        : file.endsWith('.html')
          ? file.slice(0, -'.html'.length)
          : file;
  return `/${path.split('/').map(encodeURIComponent).join('/')}`;
}

const read: ReadAsset = async (file) => {
  if (!assets) throw new Error('folio: the ASSETS binding is not set; is this running on Cloudflare Pages?');
  const res = await assets.fetch(new URL(assetUrl(file), origin));
  return res.status === 200 ? new Uint8Array(await res.arrayBuffer()) : null;
};

// The route shards and chunks one request reads, kept for the next in this isolate, whichever function reads them.
const kept = keptFiles();
const handle = createHandler(read, { kept });
const precomputedReply = createPrecomputed(read, kept);

function bind(context: Context): void {
  assets = context.env.ASSETS;
  origin = new URL(context.request.url).origin;
}

/** Everything: precomputed files first, then the core (search, MCP, errors, any limit/offset). */
export async function answer(context: Context): Promise<Response> {
  bind(context);
  return toResponse(await handle(await toReq(context.request), context.data?.[PRIOR] as Prior | undefined));
}

/**
 * Only what the build precomputed: the file the core's rule picks for this
 * request (Accept negotiation, canonical query strings), with the manifest's
 * headers, since _headers does not apply to function responses; or the 500
 * that says why the files cannot be used. Null when only the core can
 * answer: what was read on the way is left in context.data for the route.
 */
export async function precomputed(context: Context): Promise<Response | null> {
  const { method } = context.request;
  if (method !== 'GET' && method !== 'HEAD') return null;
  bind(context);
  const found = await precomputedReply(await toReq(context.request));
  if ('reply' in found) return toResponse(found.reply);
  if (context.data && found.prior) context.data[PRIOR] = found.prior;
  return null;
}
