// The MCP methods this read-only server answers, for both eras: the
// initialize-based revisions (2025-03-26, 2025-06-18, 2025-11-25) and the
// stateless 2026-07-28 (server/discover, a per-request _meta envelope, and
// results that carry resultType, cache hints and the server's identity).
// Types only, from the official SDK: they check these shapes at compile time and cost nothing at run time.
import type {
  DiscoverResult,
  Implementation,
  InitializeResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
  Tool,
} from '@modelcontextprotocol/server';
import type { Site } from '../model.js';
import { serviceResource } from '../resources.js';
import type { Runtime } from '../runtime.js';
import { pagePath } from '../urls.js';
import { callTool } from './call.js';
import { INITIALIZE_PROTOCOL_VERSIONS, instructions, serverInfo, STATELESS_PROTOCOL_VERSIONS } from './info.js';
import { ErrorCode, RpcError, type Params } from './rpc.js';
import { tools } from './tools.js';

export const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

/** One request's protocol: its era and revision. */
export interface Exchange {
  era: 'legacy' | 'modern';
  version: string;
}

type Result = Record<string, unknown>;
type Method = (params: Params, rt: Runtime, exchange: Exchange) => Result | Promise<Result>;

/** No listChanged and no subscribe: the content changes only with a new deployment, and this server holds no stream. */
const CAPABILITIES = { tools: {}, resources: {} };

/** 2026-07-28 lets a client cache list and read results; everything here is public and changes only on a rebuild. */
const CACHE_HINT = { ttlMs: 60_000, cacheScope: 'public' } as const;
const CACHEABLE = new Set(['tools/list', 'resources/list', 'resources/templates/list', 'resources/read', 'server/discover']);

function implementation(site: Site): Implementation {
  const info = serverInfo(site);
  return { name: info.name, title: info.title, version: info.version, description: info.description, websiteUrl: info.websiteUrl };
}

/** The tools as tools/list answers them. */
export const toolList: Tool[] = tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
  name,
  title,
  description,
  inputSchema,
  outputSchema,
  annotations,
}));

/** The service pages as resources, each its Markdown twin (D47); the model's head carries the services everywhere. */
function serviceResources(site: Site) {
  return site.services.map((s) => ({
    path: pagePath.service(s.id),
    uri: serviceResource(site, s).markdown_url,
    name: `service-${s.id}`,
    title: s.title,
    description: s.summary,
  }));
}

/** Every post and service as a resource: its twin (D37, D47); posts from the post list's items, as the list pages have them. */
async function resourceList(rt: Runtime) {
  const { items } = await rt.data.posts(undefined, 0, Infinity);
  const posts = items.map((post) => ({
    uri: post.markdown_url as string,
    name: post.slug as string,
    title: post.title as string,
    description: post.summary as string,
  }));
  const services = serviceResources(rt.site).map(({ path: _path, ...r }) => r);
  return [...posts, ...services].map((r) => ({ ...r, mimeType: 'text/markdown' }));
}

const string = (params: Params, key: string): string => {
  const value = params[key];
  if (typeof value !== 'string') throw new RpcError(ErrorCode.InvalidParams, `params.${key} must be a string.`);
  return value;
};

function unknownTool(name: string): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    `Unknown tool: ${name}. tools/list names the ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}.`,
  );
}

const legacy: Record<string, Method> = {
  initialize: (params, rt) => {
    const requested = string(params, 'protocolVersion');
    // The client's revision when this server speaks it, else this server's newest; the client then decides.
    const protocolVersion = (INITIALIZE_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
      ? requested
      : INITIALIZE_PROTOCOL_VERSIONS[0];
    return {
      protocolVersion,
      capabilities: CAPABILITIES,
      serverInfo: implementation(rt.site),
      instructions: instructions(rt.site),
    } satisfies InitializeResult;
  },
  ping: () => ({}),
};

const modern: Record<string, Method> = {
  'server/discover': (_, rt) =>
    ({
      supportedVersions: [...STATELESS_PROTOCOL_VERSIONS],
      capabilities: CAPABILITIES,
      instructions: instructions(rt.site),
      ...CACHE_HINT,
    }) satisfies DiscoverResult,
};

const shared: Record<string, Method> = {
  'tools/list': () => ({ tools: toolList }) satisfies ListToolsResult,
  'tools/call': async (params, rt) => {
    const name = string(params, 'name');
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw unknownTool(name);
    const args = params.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new RpcError(ErrorCode.InvalidParams, 'params.arguments must be an object.');
    return callTool(tool, args as Record<string, unknown>, rt);
  },
  'resources/list': async (_, rt) => ({ resources: await resourceList(rt) }) satisfies ListResourcesResult,
  'resources/templates/list': () => ({ resourceTemplates: [] }) satisfies ListResourceTemplatesResult,
  'resources/read': async (params, rt, exchange) => {
    const uri = string(params, 'uri');
    // The resource is the page's Markdown twin (D21, D37, D47): the same bytes as its .md URL.
    const service = serviceResources(rt.site).find((r) => r.uri === uri);
    const text = service ? await rt.data.twin(service.path) : await rt.data.postTwin(uri);
    if (text === null) {
      const code = exchange.era === 'modern' ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
      throw new RpcError(code, `Resource not found: ${uri}. resources/list gives the URI of every post and service.`, { uri });
    }
    return { contents: [{ uri, mimeType: 'text/markdown', text }] } satisfies ReadResourceResult;
  },
};

/** A method neither era answers, or the other era's: -32601, naming the methods this era answers. */
function unknownMethod(method: string, exchange: Exchange): RpcError {
  const own = exchange.era === 'modern' ? modern : legacy;
  const known = [...Object.keys(own), ...Object.keys(shared)].join(', ');
  const elsewhere = Object.hasOwn(exchange.era === 'modern' ? legacy : modern, method)
    ? exchange.era === 'modern'
      ? ` ${method} belongs to the initialize-based revisions; 2026-07-28 has no handshake.`
      : ` ${method} belongs to revision 2026-07-28: send it with the per-request _meta envelope.`
    : '';
  return new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}.${elsewhere} This server answers ${known}.`);
}

/** Answers one request; throws RpcError for a JSON-RPC error. */
export async function answer(method: string, params: Params, rt: Runtime, exchange: Exchange): Promise<Result> {
  const own = exchange.era === 'modern' ? modern : legacy;
  const handler = Object.hasOwn(own, method) ? own[method] : Object.hasOwn(shared, method) ? shared[method] : undefined;
  if (!handler) throw unknownMethod(method, exchange);
  const result = await handler(params, rt, exchange);
  if (exchange.era === 'legacy') return result;
  // 2026-07-28 results: resultType, cache hints on the cacheable ones, and the server's identity in _meta.
  return {
    ...result,
    resultType: 'complete',
    ...(CACHEABLE.has(method) ? CACHE_HINT : {}),
    _meta: { [SERVER_INFO_META_KEY]: implementation(rt.site) },
  };
}
