// Random POST /mcp requests for the MCP fuzzer (fuzz-mcp.test.ts): JSON-RPC
// messages with wrong types, prototype keys, huge numbers and ids, batches,
// nesting 100,000 deep, malformed JSON, bytes that are not UTF-8, and random
// media types and protocol headers.
import fc from 'fast-check';
import { encode, SITE, TOOL_NAMES } from './mcp.js';

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'server/discover',
  'prompts/list',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'subscriptions/listen',
  'nope',
  '',
  'tools/list/',
  'TOOLS/LIST',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
];
const VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

/** A JSON value, including the shapes that break naive code: huge numbers, long strings, prototype keys. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      1e308,
      -1e308,
      2 ** 53 + 1,
      -0,
      0.5,
      Number.MAX_SAFE_INTEGER,
      '',
      ' ',
      '__proto__',
      'constructor',
      null,
      true,
      [],
      {},
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'query', 'slug', 'limit'),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  },
);

const id = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1e308, 2 ** 53 + 1, 1.5, -0, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => '9'.repeat(n)),
  fc.constantFrom(null, true, [], {}, [1], { a: 1 }),
);

const argumentsFor: Record<string, fc.Arbitrary<unknown>> = {
  site_get_profile: fc.oneof(fc.constant({}), fc.record({ extra: value })),
  site_list_posts: fc.record({ tag: value, limit: value, offset: value }, { requiredKeys: [] }),
  site_get_post: fc.record(
    { slug: fc.oneof(fc.constantFrom('retiring-pid-files', '../../canary', '..%2f..%2fcanary', 'nope', '', '%00', 'ÄÖ'), value) },
    { requiredKeys: [] },
  ),
  site_search_writing: fc.record(
    { query: fc.oneof(fc.constantFrom('ssh', 'deliverabilty', '', ' ', '*', '"', '\\', 'a'.repeat(201)), value), limit: value },
    { requiredKeys: [] },
  ),
  site_list_projects: fc.record(
    { status: fc.oneof(fc.constantFrom('live', 'sunset', 'delivered', 'LIVE', 'paused'), value) },
    { requiredKeys: [] },
  ),
  site_check_availability: fc.record(
    {
      service: fc.oneof(fc.constantFrom('email-deliverability', 'agentic-coding-enablement', 'nope', '', 'EMAIL-DELIVERABILITY'), value),
      month: fc.oneof(fc.constantFrom('2026-12', '2027-04', '2027-05', '2026-1', '2026-13', '', '9999-99'), value),
    },
    { requiredKeys: [] },
  ),
};

const toolCall = fc.constantFrom(...TOOL_NAMES).chain((name) =>
  fc.record(
    {
      name: fc.oneof({ weight: 5, arbitrary: fc.constant<unknown>(name) }, { weight: 1, arbitrary: value }),
      arguments: fc.oneof({ weight: 5, arbitrary: argumentsFor[name]! }, { weight: 1, arbitrary: value }),
    },
    { requiredKeys: [] },
  ),
);

const resourceUri = fc.constantFrom(
  `${SITE}/blog/retiring-pid-files.md`,
  `${SITE}/blog/../../canary.md`,
  `${SITE}/blog/%2e%2e%2f%2e%2e%2fcanary.md`,
  `${SITE}/../canary.md`,
  'file:///etc/passwd',
  `file://${'/'.repeat(3)}canary.md`,
  `${SITE}/_folio/site.json`,
  `${SITE}/blog/nope.md`,
  'https://evil.example/blog/retiring-pid-files.md',
  '',
  'not a uri',
);

const meta = fc.record({
  _meta: fc.record(
    {
      'io.modelcontextprotocol/protocolVersion': fc.oneof(fc.constantFrom(...VERSIONS), value),
      'io.modelcontextprotocol/clientCapabilities': fc.oneof(fc.constant({}), value),
    },
    { requiredKeys: [] },
  ),
});

const params = fc.oneof(
  { weight: 3, arbitrary: toolCall },
  { weight: 1, arbitrary: fc.record({ uri: fc.oneof(resourceUri, value) }) },
  {
    weight: 1,
    arbitrary: fc.record(
      { protocolVersion: fc.oneof(fc.constantFrom(...VERSIONS, '1999-01-01'), value), capabilities: value, clientInfo: value },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.tuple(toolCall, meta).map(([a, b]) => ({ ...a, ...b })) },
  { weight: 1, arbitrary: fc.record({ cursor: value }) },
  { weight: 1, arbitrary: value },
);

const message = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant<unknown>('2.0') }, { weight: 1, arbitrary: value }),
    id,
    method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom<unknown>(...METHODS) }, { weight: 1, arbitrary: value }),
    params,
    result: value,
    error: value,
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);

/** Nesting n deep in a place the server reads (arguments), in a place it does not (extra), or as the id. */
const deep = fc
  .tuple(fc.integer({ min: 100, max: 100_000 }), fc.constantFrom('[', '{"a":'), fc.constantFrom('arguments', 'extra', 'params', 'id'))
  .map(([n, open, where]) => {
    const close = open === '[' ? ']' : '}';
    const nest = `${open.repeat(n)}1${close.repeat(n)}`;
    if (where === 'arguments')
      return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"site_list_posts","arguments":{"tag":${nest}}}}`;
    if (where === 'params') return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${nest}}`;
    if (where === 'id') return `{"jsonrpc":"2.0","id":${nest},"method":"ping"}`;
    return `{"jsonrpc":"2.0","id":1,"method":"ping","extra":${nest}}`;
  });

const bodyText = fc.oneof(
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 2, arbitrary: fc.array(fc.oneof(message, value), { maxLength: 6 }).map((ms) => JSON.stringify(ms)) },
  { weight: 1, arbitrary: deep },
  // Malformed JSON: a valid message cut short, or made invalid.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        message.map((m) => JSON.stringify(m)),
        fc.nat(),
      )
      .map(([s, n]) => s.slice(0, n % Math.max(1, s.length))),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      '1',
      '"x"',
      '[]',
      '{}',
      '[[]]',
      '{"jsonrpc":"2.0"',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list",}',
      "{'jsonrpc':'2.0'}",
      'NaN',
      '{"__proto__":{"polluted":1},"jsonrpc":"2.0","id":1,"method":"ping"}',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

/** A body of POST /mcp: mostly UTF-8 text, sometimes bytes that are not. */
export const mcpBodyArb = fc.oneof(
  { weight: 9, arbitrary: bodyText.map(encode) },
  // Bytes that are not UTF-8.
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }) },
);

/** The request headers of POST /mcp: the media type always, the protocol headers sometimes. */
export const mcpHeadersArb = fc.record(
  {
    'content-type': fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/jsonx',
          'application/json-rpc',
          'multipart/form-data; boundary=x',
          '',
          ';',
          'application/json;;;',
        ),
      },
    ),
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', 'text/html'),
    'mcp-protocol-version': fc.oneof(fc.constantFrom(...VERSIONS), fc.constantFrom('1999-01-01', '', 'latest')),
    'mcp-method': fc.constantFrom(...METHODS),
    'mcp-name': fc.constantFrom(...TOOL_NAMES, '=?base64?!!!?=', '=?base64?c2l0ZV9nZXRfcHJvZmlsZQ==?='),
    'mcp-session-id': fc.constantFrom('abc', ''),
  },
  { requiredKeys: ['content-type'] },
);
