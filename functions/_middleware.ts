// Every request _routes.json sends to the functions comes here, whatever its
// path or method, and the core answers it (D38): the file the build
// precomputed for it (the twin when Accept prefers Markdown, D21; the file
// of a canonical query string, D8-D10), else search, MCP, any limit and
// offset, 405s, preflights and errors in the envelope.
//
// One middleware and no route files: Pages' router matches each route file's
// pattern and hands each route function a clone of the request, about 3 ms
// of CPU in an MCP call's cold start (BENCHMARKS.md); and a route file
// would match no path with an empty segment (/api/v1//posts), which must
// still reach the core (D13, D15, D17).
import { answer } from './_shared/folio.js';

export const onRequest = answer;
