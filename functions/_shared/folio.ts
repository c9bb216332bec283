// folio on Cloudflare Pages: one host-neutral handler per isolate, reading the
// files of dist/ through the ASSETS binding (D38): the head, the route shards
// and the records a request needs, never the whole model or manifest (D55).
// The middleware next to this folder is its one caller; this module has no
// onRequest export, so Pages does not route to it.
import { toReq, toResponse } from '../../build/runtime/fetch.js';
import { createHandler, type ReadAsset } from '../../build/runtime/handler.js';

/** The slice of Pages' EventContext folio uses (no @cloudflare/workers-types needed). */
export interface Context {
  request: Request;
  env: { ASSETS: { fetch(input: URL | Request | string, init?: RequestInit): Promise<Response> } };
}

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

// The head, route shards and chunks one request reads are kept for the next in this isolate.
const handle = createHandler(read);

/** Everything: precomputed files first, then the core (search, MCP, errors, any limit/offset). */
export async function answer(context: Context): Promise<Response> {
  assets = context.env.ASSETS;
  origin = new URL(context.request.url).origin;
  return toResponse(await handle(await toReq(context.request)));
}
