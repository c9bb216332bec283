// folio on hosts whose functions cannot read the deployed files directly
// (Netlify, Vercel): the host-neutral handler reads dist/ over HTTP from its
// own site, where the CDN serves every file (D38). One handler per instance:
// a warm instance fetches the head and the answer's own files, and keeps the
// route shards and chunks it fetched before (core/kept-files.ts).
import { toReq, toResponse } from '../../build/runtime/fetch.js';
import { createHandler, type ReadAsset } from '../../build/runtime/handler.js';

/** Marks the function's own file reads: a host's routes skip the function for them (Vercel's `missing`), and the function refuses one that reaches it anyway. */
export const INTERNAL = 'x-folio-internal-read';

export interface OriginOptions {
  /** A path prefix the host's rewrites put in front of the original path, e.g. "/_folio/netlify". */
  prefix?: string;
  /**
   * A path prefix under which the host serves dist/'s files as they are, past
   * the rules that send their addresses to this function (Netlify's forced
   * page rules take /blog/x.html too): the function's own reads go there, or
   * a read would come back to the function.
   */
  files?: string;
  /** A query parameter the host's rewrites carry the original path in, e.g. "__folio_path". */
  param?: string;
}

/** The URL path of a dist file (no index.html magic: these hosts serve files at their own path); `#` and `?` escaped too, which would end the path. */
function fileUrl(file: string): string {
  return encodeURI(`/${file}`).replace(/[#?]/g, (c) => encodeURIComponent(c));
}

export function originHandler(options: OriginOptions): (request: Request) => Promise<Response> {
  let origin = '';
  const read: ReadAsset = async (file) => {
    const res = await fetch(new URL(`${options.files ?? ''}${fileUrl(file)}`, origin), {
      headers: { [INTERNAL]: '1' },
      redirect: 'manual',
    });
    return res.status === 200 ? new Uint8Array(await res.arrayBuffer()) : null;
  };
  const handle = createHandler(read);
  return async (request) => {
    const url = new URL(request.url);
    origin = url.origin;
    if (request.headers.get(INTERNAL)) return new Response(null, { status: 404 });
    const req = await toReq(request);
    // The original address, whichever way the host's rewrite delivered it.
    if (options.prefix && req.path.startsWith(`${options.prefix}/`)) req.path = req.path.slice(options.prefix.length);
    if (options.param && url.searchParams.has(options.param)) {
      req.path = url.searchParams.get(options.param) || '/';
      url.searchParams.delete(options.param);
      req.search = url.searchParams.toString();
    }
    return toResponse(await handle(req));
  };
}
