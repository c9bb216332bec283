// GET /api/{version}/search (D12): never precomputed; the core answers from
// the prebuilt index, which is loaded once per isolate.
import { answer } from '../../_shared/folio.js';

export const onRequest = answer;
