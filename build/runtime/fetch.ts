// Adapters between fetch's Request/Response and the core's Req/Reply, for
// hosts whose functions speak fetch (Cloudflare, Netlify, Vercel).
import { MAX_BODY_BYTES, type Reply, type Req } from '../core/http.js';

/**
 * The request's headers as the core's record (lower-case name → value), each
 * looked up when read. The core reads a few headers by name; copying them all
 * walks fetch's Headers, which sorts and combines the whole list first, and
 * in a cold isolate that walk cost more than the rest of adapting a request.
 */
function headerRecord(headers: globalThis.Headers): Record<string, string> {
  const value = (name: string | symbol) => (typeof name === 'string' ? headers.get(name) : null);
  return new Proxy({} as Record<string, string>, {
    get: (_, name) => value(name) ?? undefined,
    has: (_, name) => value(name) !== null,
    // Set-Cookie is listed once per value; a key is listed once.
    ownKeys: () => [...new Set(headers.keys())],
    getOwnPropertyDescriptor: (_, name) => {
      const v = value(name);
      return v === null ? undefined : { value: v, enumerable: true, configurable: true, writable: false };
    },
  });
}

export async function toReq(request: Request): Promise<Req> {
  const url = new URL(request.url);
  const headers = headerRecord(request.headers);
  const req: Req = { method: request.method.toUpperCase(), path: url.pathname, search: url.search.slice(1), headers, body: null };
  if (request.body && request.method !== 'GET' && request.method !== 'HEAD') {
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > MAX_BODY_BYTES) return { ...req, tooLarge: true };
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        return { ...req, tooLarge: true };
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    req.body = body;
  }
  return req;
}

export function toResponse(reply: Reply): Response {
  const body = reply.status === 204 || reply.status === 304 ? null : reply.body;
  return new Response(body as BodyInit | null, { status: reply.status, headers: reply.headers });
}
