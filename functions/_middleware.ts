// Runs first for every request _routes.json sends to the functions. Answers
// what the build precomputed (D38): the twin when Accept prefers Markdown
// (D21), the file of a canonical query string (D8-D10), read through
// env.ASSETS with the manifest's headers. Anything else goes on to the route
// files: mcp.ts, api/[version]/search.ts and the catch-all [[path]].ts.
import { answer, precomputed, type Context } from './_shared/folio.js';

/**
 * Pages matches route files segment by segment, and a path with an empty
 * segment (/api/v1//posts) matches none, not even the catch-all: it would
 * fall through to the static 404.html, or Pages' bare 405 for a POST. The
 * core answers it here instead, as folio serve does (D13, D15, D17).
 */
const routable = (request: Request) => !new URL(request.url).pathname.includes('//');

export const onRequest = async (context: Context): Promise<Response> =>
  (await precomputed(context)) ?? (routable(context.request) ? context.next() : answer(context));
