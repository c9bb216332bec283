// tools/call (D37): each tool is its API operation. The arguments become the
// operation's request, respondApi() answers it exactly as it answers HTTP,
// and the answer becomes the result: the JSON body as structuredContent and
// as a text block, or, for a failure, isError with the API's envelope (its
// message and hint).
import type { CallToolResult } from '@modelcontextprotocol/server';
import { respondApi } from '../api/index.js';
import { operations } from '../api/operations.js';
import { errorBody, internalError } from '../errors.js';
import { primaryVersion } from '../headers.js';
import { jsonText, request, type Reply } from '../http.js';
import type { Site } from '../model.js';
import { describeRange, type ParamSpec } from '../params.js';
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

/** The API request a tool's arguments make, or the problem with the arguments. */
function apiTarget(site: Site, tool: ToolSpec, args: Record<string, unknown>): { target: string } | { problem: CallToolResult } {
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
    if (spec.in === 'path') path = path.replace(`{${spec.name}}`, encodeURIComponent(String(value)));
    else (query ??= new URLSearchParams()).set(spec.name, String(value));
  }
  const search = query?.toString() ?? '';
  return { target: search ? `${path}?${search}` : path };
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
  const planned = apiTarget(rt.site, tool, args);
  if ('problem' in planned) return planned.problem;
  let reply: Reply;
  try {
    // The precomputed answer when there is one (in the functions), else the API's own (D38).
    const get = request('GET', planned.target);
    reply = (await rt.data.file(get)) ?? (await respondApi(get, rt));
  } catch (error) {
    // What respond() would have answered for the same failure (a missing search index, say).
    console.error(`folio: MCP ${tool.name} failed:`, error);
    reply = internalError(rt.site, error);
  }
  const text = reply.body ? decoder.decode(reply.body) : '';
  if (reply.status !== 200) return { content: [{ type: 'text', text }], isError: true };
  const body = JSON.parse(text) as Record<string, unknown>;
  return { content: [{ type: 'text', text: (await textBlock(rt, tool.name, body)) ?? text }], structuredContent: body };
}

/**
 * A client that reads only text blocks loses nothing (D53): a post's text is
 * its Markdown twin (title, facts, body), the profile's the about twin. The
 * other tools' text is the API's JSON, which carries every title, date and URL.
 */
async function textBlock(rt: Runtime, tool: string, body: Record<string, unknown>): Promise<string | null> {
  if (tool === 'site_get_post' && typeof body.slug === 'string') return rt.data.twin(pagePath.post(body.slug));
  if (tool === 'site_get_profile') return rt.data.twin(pagePath.about());
  return null;
}
