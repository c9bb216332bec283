// What the tests of /mcp through the official clients share (D36, D37): the
// sample served on 127.0.0.1, the API's answer to compare each tool with, the
// client flavours with the responses each saw, and the tool calls, good and bad,
// with the API request that must answer the same.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import { serveBuilt } from './site.js';

export interface ClientServer {
  /** The server's origin, set once beforeAll has run. */
  readonly url: string;
  /** A URL of the server for a site path, or for an absolute site URL. */
  at(path: string): string;
  /** The API's answer to a path, as JSON. */
  api(path: string): Promise<{ status: number; body: any }>;
}

/** The sample, served before the file's tests and closed after them. */
export function clientServer(): ClientServer {
  let s: Awaited<ReturnType<typeof serveBuilt>>;
  beforeAll(async () => {
    s = await serveBuilt();
  });
  afterAll(() => s?.close());
  return {
    get url() {
      return s.url;
    },
    at: (path) => s.at(path),
    async api(path) {
      const res = await fetch(s.at(path));
      return { status: res.status, body: await res.json() };
    },
  };
}

/** Every response the client saw, to check that none was a stream or carried a session (D36). */
export interface Seen {
  method: string;
  status: number;
  contentType: string | null;
  session: string | null;
}

function recordingFetch(seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    seen.push({
      method: init?.method ?? 'GET',
      status: res.status,
      contentType: res.headers.get('content-type'),
      session: res.headers.get('mcp-session-id'),
    });
    return res;
  };
}

export interface Connected {
  listTools(): Promise<{ tools: any[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<any>;
  listResources(): Promise<{ resources: any[] }>;
  readResource(params: { uri: string }): Promise<{ contents: any[] }>;
  close(): Promise<void>;
}

export interface Flavour {
  name: string;
  /** The revision the connection should end up on. */
  revision: string;
  /** Requests refused with 400 on the way there (a revision the server does not speak, then a retry). */
  refusals?: number;
  connect(url: URL, seen: Seen[], errors: Error[]): Promise<{ client: Connected; version: () => string | undefined }>;
}

/** The v2 client with these options, expected to end on `revision`. */
function v2(mode: string, revision: string, options?: ConstructorParameters<typeof ClientV2>[1]): Flavour {
  return {
    name: `@modelcontextprotocol/client (v2), ${mode}`,
    revision,
    async connect(url, seen, errors) {
      const transport = new TransportV2(url, { fetch: recordingFetch(seen) });
      const client = new ClientV2({ name: 'folio-test', version: '1.0.0' }, options);
      client.onerror = (e) => errors.push(e);
      await client.connect(transport);
      return { client: client as unknown as Connected, version: () => client.getNegotiatedProtocolVersion() };
    },
  };
}

export const FLAVOURS: Flavour[] = [
  {
    name: '@modelcontextprotocol/sdk (v1)',
    revision: '2025-11-25',
    async connect(url, seen, errors) {
      const transport = new TransportV1(url, { fetch: recordingFetch(seen) });
      transport.onerror = (e) => errors.push(e);
      const client = new ClientV1({ name: 'folio-test', version: '1.0.0' });
      client.onerror = (e) => errors.push(e);
      await client.connect(transport);
      return { client: client as unknown as Connected, version: () => transport.protocolVersion };
    },
  },
  v2('default mode', '2025-11-25'),
  v2('pinned to 2026-07-28', '2026-07-28', { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
  v2('auto negotiation', '2026-07-28', { versionNegotiation: { mode: 'auto' } }),
  // A client of a later revision tries it first: the server's -32022 names 2026-07-28, and the client retries with it.
  {
    ...v2('auto negotiation preferring a revision newer than the server', '2026-07-28', {
      versionNegotiation: { mode: 'auto' },
      supportedProtocolVersions: ['2099-01-01', '2026-07-28', '2025-11-25'],
    }),
    refusals: 1,
  },
];

/** Each tool with valid arguments, and the API request that must answer the same. */
export const CALLS: { name: string; arguments: Record<string, unknown>; path: string }[] = [
  { name: 'site_get_profile', arguments: {}, path: '/api/v1/profile' },
  { name: 'site_list_posts', arguments: { tag: 'email', limit: 2, offset: 1 }, path: '/api/v1/posts?tag=email&limit=2&offset=1' },
  { name: 'site_get_post', arguments: { slug: 'email-deliverability-b2b-saas' }, path: '/api/v1/posts/email-deliverability-b2b-saas' },
  { name: 'site_search_writing', arguments: { query: 'deliverabilty', limit: 3 }, path: '/api/v1/search?q=deliverabilty&limit=3' },
  { name: 'site_list_projects', arguments: { status: 'live' }, path: '/api/v1/projects?status=live' },
  { name: 'site_check_availability', arguments: {}, path: '/api/v1/availability' },
  {
    name: 'site_check_availability',
    arguments: { service: 'email-deliverability', month: '2027-01' },
    path: '/api/v1/availability?service=email-deliverability&month=2027-01',
  },
];

/** The tools whose text block is a page's Markdown twin. */
export const TWINS: Record<string, string> = { site_get_post: '/blog/email-deliverability-b2b-saas.md', site_get_profile: '/about.md' };

/** Bad arguments and unknown ids, and the API request whose error hint the tool must repeat (D37). */
export const BAD_CALLS: { name: string; arguments: Record<string, unknown>; path: string }[] = [
  { name: 'site_get_post', arguments: { slug: 'no-such-post' }, path: '/api/v1/posts/no-such-post' },
  { name: 'site_list_posts', arguments: { limit: 500 }, path: '/api/v1/posts?limit=500' },
  { name: 'site_list_posts', arguments: { offset: -1 }, path: '/api/v1/posts?offset=-1' },
  // A string, even of digits, is not an integer argument: the tool answers as the API does a limit that is not a number.
  { name: 'site_list_posts', arguments: { limit: '5' }, path: '/api/v1/posts?limit=five' },
  { name: 'site_search_writing', arguments: { query: '   ' }, path: '/api/v1/search?q=%20%20%20' },
  { name: 'site_search_writing', arguments: {}, path: '/api/v1/search' },
  { name: 'site_search_writing', arguments: { query: 'x'.repeat(201) }, path: `/api/v1/search?q=${'x'.repeat(201)}` },
  { name: 'site_list_projects', arguments: { status: 'archived' }, path: '/api/v1/projects?status=archived' },
  { name: 'site_check_availability', arguments: { service: 'no-such-service' }, path: '/api/v1/availability?service=no-such-service' },
  { name: 'site_check_availability', arguments: { month: '2031-01' }, path: '/api/v1/availability?month=2031-01' },
  { name: 'site_check_availability', arguments: { month: 'next month' }, path: '/api/v1/availability?month=next%20month' },
];
