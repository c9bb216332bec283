// Adapters between fetch's Request/Response and the core's Req/Reply, for
// hosts whose functions speak fetch (Cloudflare, Netlify, Vercel).
import { MAX_BODY_BYTES, type Reply, type Req } from '../core/http.js';

export async function toReq(request: Request): Promise<Req> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
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
