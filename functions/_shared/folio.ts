// folio on Cloudflare Pages: one host-neutral handler per isolate, reading the
// files of dist/ through the ASSETS binding (D38). The route files next to
// this folder are a few lines each; this module has no onRequest export, so
// Pages does not route to it.
import { MANIFEST_PATH, SITE_PATH, type Manifest } from '../../build/core/files.js';
import type { Reply } from '../../build/core/http.js';
import type { Site } from '../../build/core/model.js';
import { finish } from '../../build/core/respond.js';
import { staticTarget } from '../../build/core/static.js';
import { toReq, toResponse } from '../../build/runtime/fetch.js';
import { createHandler, type ReadAsset } from '../../build/runtime/handler.js';

/** The slice of Pages' EventContext folio uses (no @cloudflare/workers-types needed). */
export interface Context {
  request: Request;
  env: { ASSETS: { fetch(input: URL | Request | string, init?: RequestInit): Promise<Response> } };
  next(input?: Request | string, init?: RequestInit): Promise<Response>;
}

let assets: Context['env']['ASSETS'] | undefined;
let origin = 'https://folio.invalid';

/**
 * The URL at which Pages' asset server answers a dist file with 200: it
 * serves `a/index.html` at `a/` and `a.html` at `a`, and redirects otherwise.
 */
export function assetUrl(file: string): string {
  const path = file === 'index.html' ? '' : file.endsWith('/index.html') ? file.slice(0, -'index.html'.length) : file.endsWith('.html') ? file.slice(0, -'.html'.length) : file;
  return `/${path.split('/').map(encodeURIComponent).join('/')}`;
}

const cache = new Map<string, Promise<Uint8Array | null>>();

const read: ReadAsset = (file) => {
  // The model and the manifest are read once per isolate, whoever asks first.
  const cached = cache.get(file);
  if (cached) return cached;
  const bytes = fetchAsset(file);
  if (file.startsWith('_folio/')) {
    cache.set(file, bytes);
    bytes.then((b) => b ?? cache.delete(file), () => cache.delete(file));
  }
  return bytes;
};

async function fetchAsset(file: string): Promise<Uint8Array | null> {
  if (!assets) throw new Error('folio: the ASSETS binding is not set; is this running on Cloudflare Pages?');
  const res = await assets.fetch(new URL(assetUrl(file), origin));
  return res.status === 200 ? new Uint8Array(await res.arrayBuffer()) : null;
}

const decoder = new TextDecoder();
const loaded = new Map<string, Promise<unknown>>();
function json<T>(file: string): Promise<T> {
  let value = loaded.get(file) as Promise<T> | undefined;
  if (!value) {
    value = read(file).then((bytes) => {
      if (!bytes) throw new Error(`folio: ${file} is missing from the deployment; deploy a complete \`folio build\` output.`);
      return JSON.parse(decoder.decode(bytes)) as T;
    });
    value.catch(() => loaded.delete(file));
    loaded.set(file, value);
  }
  return value;
}

const handle = createHandler(read);

function bind(context: Context): void {
  assets = context.env.ASSETS;
  origin = new URL(context.request.url).origin;
}

/** Everything: precomputed files first, then the core (search, MCP, errors, any limit/offset). */
export async function answer(context: Context): Promise<Response> {
  bind(context);
  return toResponse(await handle(await toReq(context.request)));
}

/**
 * Only what the build precomputed: the file the core's rule picks for this
 * request (Accept negotiation, canonical query strings), with the manifest's
 * headers, since _headers does not apply to function responses. Null when
 * only the core can answer.
 */
export async function precomputed(context: Context): Promise<Response | null> {
  const { method } = context.request;
  if (method !== 'GET' && method !== 'HEAD') return null;
  bind(context);
  const req = await toReq(context.request);
  let reply: Reply | null = null;
  try {
    const [site, manifest] = await Promise.all([json<Site>(SITE_PATH), json<Manifest>(MANIFEST_PATH)]);
    const target = staticTarget(req, site, manifest);
    const route = target ? manifest.routes[target] : undefined;
    const body = route ? await read(route[0]) : null;
    if (route && body) reply = finish(req, { status: 200, headers: { ...manifest.header_sets[route[1]]! }, body });
  } catch (error) {
    // The route files answer through the core, which reports the failure properly.
    console.error('folio: cannot use the precomputed files:', error);
  }
  return reply && toResponse(reply);
}
