// Runs first for every request _routes.json sends to the functions. Answers
// what the build precomputed (D38): the twin when Accept prefers Markdown
// (D21), the file of a canonical query string (D8-D10), read through
// env.ASSETS with the manifest's headers. Anything else goes on to the route
// files: mcp.ts, api/[version]/search.ts and the catch-all [[path]].ts.
import { precomputed, type Context } from './_shared/folio.js';

export const onRequest = async (context: Context): Promise<Response> => (await precomputed(context)) ?? context.next();
