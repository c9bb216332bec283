// tools/call (D37): each tool is its API operation. The arguments become the
// operation's request, respondApi() answers it exactly as it answers HTTP,
// and the answer becomes the result: the JSON body as structuredContent and
// as a text block, or, for a failure, isError with the API's envelope (its
// message and hint). A request for a former address (D48) is answered from
// the address the API redirects it to, as an HTTP client following the 301
// would be.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isApiPath, respondApi } from '../api/index.js';
import { operations } from '../api/operations.js';
import { errorBody, internalError } from '../errors.js';
import { primaryVersion } from '../headers.js';
import { jsonText, type Reply, type Req } from '../http.js';
import type { Site } from '../model.js';
import { describeRange, type ParamSpec } from '../params.js';
import { movedTo } from '../redirects.js';
import type { Runtime } from '../runtime.js';
import { API_PREFIX, pagePath } from '../urls.js';
import type { ToolSpec } from './tools.js';

const decoder = new TextDecoder();

/** Arguments the API could not even be asked with: the API's envelope, with the API's hint for that parameter. */
function invalid(site: Site, message: string, hint: string): CallToolResult {
  return { content: [{ type: 'text', text: jsonText(errorBody(site, 'invalid_request', message, hint)) }], isError: true };
}

/** A JSON value in a few words; never the whole value (it may be nested 100,000 deep). */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return String(value);
}

/** The API request a tool's arguments make (a GET with no headers), or the problem with the arguments. */
function apiRequest(site: Site, tool: ToolSpec, args: Record<string, unknown>): { req: Req } | { problem: CallToolResult } {
  const operation = operations.find((op) => op.operationId === tool.operationId)!;
  for (const name of Object.keys(args)) if (!Object.hasOwn(tool.params, name)) return { problem: notAnArgument(site, tool, name) };
  let path = `${API_PREFIX}/${primaryVersion(site).version}${operation.path}`;
  // Made for the first query parameter only: most calls (a post, the profile) have none.
  let query: URLSearchParams | undefined;
  for (const [name, spec] of Object.entries(tool.params)) {
    const value = args[name];
    if (value === undefined || value === null) {
      if (spec.required) return { problem: invalid(site, `The argument \`${name}\` is required.`, describeRange(spec)) };
      continue;
    }
    const type = spec.schema.type === 'integer' ? 'number' : 'string';
    if (typeof value !== type || (type === 'number' && !Number.isFinite(value))) return { problem: wrongType(site, name, spec, value) };
    // The API validates the value itself, and answers with its own message and hint.
    const text = queryText(value);
    if (spec.in === 'path') path = path.replace(`{${spec.name}}`, encodeURIComponent(text));
    else (query ??= new URLSearchParams()).set(spec.name, text);
  }
  return { req: { method: 'GET', path, search: query?.toString() ?? '', headers: {}, body: null } };
}

/** An argument as the query string carries it: a whole number in digits (1e21 is "1000000000000000000000"), so the API judges its range, not its spelling. */
function queryText(value: unknown): string {
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value).toString() : String(value);
}

function notAnArgument(site: Site, tool: ToolSpec, name: string): CallToolResult {
  const names = Object.keys(tool.params);
  const takes = names.length ? `It takes ${names.map((n) => `\`${n}\``).join(', ')}.` : 'It takes no arguments.';
  return invalid(site, `\`${name}\` is not an argument of ${tool.name}.`, takes);
}

function wrongType(site: Site, name: string, spec: ParamSpec, value: unknown): CallToolResult {
  return invalid(
    site,
    `The argument \`${name}\` must be ${spec.schema.type === 'integer' ? 'an integer' : 'a string'}, not ${describe(value)}.`,
    describeRange(spec),
  );
}

/** Calls a tool with already-parsed arguments (an object). */
export async function callTool(tool: ToolSpec, args: Record<string, unknown>, rt: Runtime): Promise<CallToolResult> {
  const planned = apiRequest(rt.site, tool, args);
  if ('problem' in planned) return planned.problem;
  const req = followMoved(planned.req, rt.site);
  // The text block's twin is read alongside the answer, not after it; it is used only if the answer has a text block.
  // A moved request's twin is the record's, read once the record names it.
  const page = req === planned.req ? textPage(tool.name, args.slug) : null;
  const twin = page === null ? null : rt.data.twin(page);
  twin?.catch(() => {});
  let reply: Reply;
  try {
    // The precomputed answer when there is one (in the functions), else the API's own (D38).
    reply = (await rt.data.file(req)) ?? (await respondApi(req, rt));
  } catch (error) {
    // What respond() would have answered for the same failure (a missing search index, say).
    console.error(`folio: MCP ${tool.name} failed:`, error);
    reply = internalError(rt.site, error);
  }
  const text = reply.body ? decoder.decode(reply.body) : '';
  if (reply.status !== 200) return { content: [{ type: 'text', text }], isError: true };
  const body = JSON.parse(text) as Record<string, unknown>;
  const own = textPage(tool.name, body.slug);
  const block = own === null ? null : own === page ? await twin! : await rt.data.twin(own);
  return { content: [{ type: 'text', text: block ?? text }], structuredContent: body };
}

/**
 * The request a tool's API request leads to. respond() answers a former API
 * address (a post's old slug, D48) with a 301 before the API is asked, and
 * respondApi() alone would call it not found; a tool follows the redirect as
 * an HTTP client would. One hop, and only to an API address of this site:
 * the map is the one respond() and the hosts' redirect files use, which the
 * functions have in the model's head.
 */
function followMoved(req: Req, site: Site): Req {
  const location = movedTo(site, req.path);
  if (location === null || !location.startsWith('/') || location.startsWith('//')) return req;
  const at = location.indexOf('?');
  const path = at === -1 ? location : location.slice(0, at);
  return isApiPath(path) ? { ...req, path, search: at === -1 ? '' : location.slice(at + 1) } : req;
}

/**
 * The page whose Markdown twin is a tool's text block, or null when its text
 * is the API's JSON, which carries every title, date and URL. A client that
 * reads only text blocks loses nothing (D53): a post's text is its twin
 * (title, facts, body), the profile's the about twin. For a post, the slug is
 * the argument's until the record has answered, then the record's.
 */
function textPage(tool: string, slug: unknown): string | null {
  if (tool === 'site_get_post') return typeof slug === 'string' ? pagePath.post(slug) : null;
  if (tool === 'site_get_profile') return pagePath.about();
  return null;
}
