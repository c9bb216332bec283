// The one function that decides every response (D38): the build calls it
// ahead of time for every request it can enumerate, the functions call it
// at run time for the rest.
import { isApiPath, versionAt } from './api/index.js';
import { errorReply, internalError } from './errors.js';
import { apiPreflightHeaders, preflight } from './headers.js';
import { etag, matchesEtag, utf8, type Reply, type Req } from './http.js';
import type { Runtime } from './runtime.js';
import { mcpFamily } from './mcp/index.js';
import { prefersMarkdown } from './negotiate.js';
import { notFoundHeaders } from './pages/headers.js';
import { redirectReply } from './redirects.js';

export const GET_METHODS = 'GET, HEAD, OPTIONS';

export async function respond(req: Req, rt: Runtime): Promise<Reply> {
  let reply: Reply;
  try {
    reply = await dispatch(req, rt);
  } catch (error) {
    report(error, req);
    reply = internalError(rt.site, error);
  }
  return finish(req, reply);
}

async function dispatch(req: Req, rt: Runtime): Promise<Reply> {
  // MCP owns its address and its methods (D36).
  const mcp = await mcpFamily.respond(req, rt);
  if (mcp) return mcp;
  // D15/D16: the method check comes first; everything else is GET-only.
  if (req.method === 'OPTIONS') return preflightOf(req, rt);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return errorReply(
      rt.site,
      'method_not_allowed',
      `${req.method} is not allowed on ${req.path}; this address is read-only.`,
      `Use GET (or HEAD). Only POST ${rt.site.config.site_url}/mcp accepts a body.`,
      { allow: GET_METHODS },
    );
  }
  // An address that moved answers 301 before anything could claim it (D48).
  const moved = redirectReply(req, rt.site);
  if (moved) return moved;
  for (const family of rt.families) {
    const reply = await family.respond(req, rt);
    if (reply) return reply;
  }
  return notFoundPage(req, rt);
}

/**
 * 404 for any address no family answers (D23): Markdown when the request
 * prefers it or asked for a twin, HTML otherwise. Never a 200.
 */
async function notFoundPage(req: Req, rt: Runtime): Promise<Reply> {
  const markdown = prefersMarkdown(req.headers.accept) || req.path.endsWith('.md');
  return { status: 404, headers: notFoundHeaders(markdown), body: utf8(await rt.data.notFound(markdown)) };
}

/**
 * A preflight carries the headers of the address it precedes: under /api the
 * D18 set (version, deprecation link, caching, nosniff), as MCP's does;
 * elsewhere CORS alone (D15, D35), since pages and documents have no version.
 */
function preflightOf(req: Req, rt: Runtime): Reply {
  if (!isApiPath(req.path)) return preflight(req, GET_METHODS);
  return preflight(req, GET_METHODS, undefined, apiPreflightHeaders(rt.site, versionAt(rt.site, req.path)));
}

/** ETag, 304 and HEAD, applied the same way to every reply (D15, D18). */
export function finish(req: Req, reply: Reply): Reply {
  if (reply.body && reply.status === 200) {
    const tag = etag(reply.body);
    reply = { ...reply, headers: { ...reply.headers, etag: tag } };
    if ((req.method === 'GET' || req.method === 'HEAD') && matchesEtag(req.headers['if-none-match'], tag)) {
      return { status: 304, headers: reply.headers, body: null };
    }
  }
  if (req.method === 'HEAD') return { ...reply, body: null };
  return reply;
}

function report(error: unknown, req: Req): void {
  // Logged for the operator; the client only ever sees the envelope.
  console.error(`folio: ${req.method} ${req.path} failed:`, error);
}
