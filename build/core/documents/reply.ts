// The one place a machine-readable document's reply and headers are built,
// so every address of D25–D34 carries CORS, nosniff and caching the same way (D35).
import { CACHE, CORS } from '../headers.js';
import { utf8, type Headers, type Reply } from '../http.js';

export function documentReply(contentType: string, body: string, extra: Headers = {}): Reply {
  return {
    status: 200,
    headers: {
      'content-type': contentType,
      ...CORS,
      'cache-control': CACHE.content,
      'x-content-type-options': 'nosniff',
      ...extra,
    },
    body: utf8(body),
  };
}
