// POST /mcp (D36). Every method comes here, not only POST: a file exporting
// only onRequestPost would let GET fall through to the static files, and GET,
// HEAD and DELETE must answer 405 with `Allow: POST, OPTIONS` from the core.
import { answer } from './_shared/folio.js';

export const onRequest = answer;
