// Random HTTP requests for the request fuzzers (request-fuzz.ts). The
// generator leans on what breaks servers: traversal spellings, encodings,
// NUL, very long and non-ASCII paths, prototype keys and huge numbers in
// queries, arbitrary methods, headers and bodies.
import fc from 'fast-check';
import type { RawRequest } from './raw-http.js';
import { KNOWN_SEGMENTS, METHODS, PREFIXES, QUERY_KEYS, QUERY_VALUES, TRAVERSAL } from './request-values.js';

const printable = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 24 });
/** Raw bytes 0x80–0xff in the target: not valid UTF-8, sent as they are. */
const latin1 = fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 6 });
const unicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map((s) => encodeURIComponent(s));
const long = fc
  .tuple(fc.constantFrom('a', '../', '%2e%2e%2f', '%', 'é', '/'), fc.integer({ min: 200, max: 5000 }))
  .map(([unit, n]) => (unit === 'é' ? encodeURIComponent('é') : unit).repeat(Math.ceil(n / unit.length)).slice(0, n));

function segment(slugs: readonly string[]) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...KNOWN_SEGMENTS, ...(slugs.length ? slugs : ['x'])) },
    { weight: 4, arbitrary: fc.constantFrom(...TRAVERSAL) },
    { weight: 2, arbitrary: printable },
    { weight: 1, arbitrary: latin1 },
    { weight: 2, arbitrary: unicode },
    { weight: 1, arbitrary: long },
    { weight: 1, arbitrary: fc.constant('') },
  );
}

function pathArb(slugs: readonly string[]) {
  return fc
    .tuple(fc.constantFrom(...PREFIXES), fc.array(segment(slugs), { maxLength: 6 }), fc.boolean(), fc.integer({ min: 0, max: 20 }))
    .map(([prefix, parts, trailing, form]) => {
      const path = `${prefix}/${parts.join('/')}${trailing ? '/' : ''}`.replace(/^\/\/+(?=.)/, form < 2 ? '//' : '/');
      // A few targets in forms other than origin-form.
      if (form === 20) return '*';
      if (form === 19) return `http://127.0.0.1${path}`;
      if (form === 18) return `http://evil.example${path}`;
      if (form === 17) return path.replace(/^\//, '\\');
      return path;
    });
}

function queryArb() {
  const value = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...QUERY_VALUES) },
    { weight: 2, arbitrary: unicode },
    { weight: 2, arbitrary: printable.map((s) => s.replace(/[#]/g, '')) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 150, max: 3000 }).map((n) => 'q'.repeat(n)) },
  );
  const key = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) },
    { weight: 1, arbitrary: printable.map((s) => s.replace(/[#&=]/g, '')) },
  );
  const pair = fc.tuple(key, value, fc.boolean()).map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constant('?') },
    {
      weight: 6,
      arbitrary: fc.array(pair, { minLength: 1, maxLength: 6 }).chain((pairs) =>
        // Repeated keys: duplicate some pairs, in place or at the end.
        fc.subarray(pairs).map((dups) => `?${[...pairs, ...dups].join('&')}`),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('?&&&', '?=', '?&=&', '?;', '?limit=1;offset=2', '?%', '?#frag') },
  );
}

const header = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });

function headersArb() {
  return fc.record(
    {
      accept: fc.oneof(
        fc.constantFrom(
          'text/markdown',
          'text/html',
          'text/markdown;q=0.9, text/html;q=0.1',
          'text/html;q=0, text/markdown',
          '*/*',
          '*/*;q=NaN',
          'text/markdown;q=2',
          'application/json',
          ';;;,,,',
          'text/*;q=0.5, text/markdown;q=0.5',
        ),
        header,
      ),
      'if-none-match': fc.oneof(fc.constantFrom('*', '""', 'W/"x"', '"a", "b"'), header),
      'content-type': fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json-rpc',
          'APPLICATION/JSON',
          'application/jsonx',
        ),
        header,
      ),
      'mcp-protocol-version': fc.oneof(fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', '1999-01-01', ''), header),
      'access-control-request-method': fc.constantFrom('GET', 'POST', 'DELETE'),
      'access-control-request-headers': header,
      origin: fc.constantFrom('https://evil.example', 'null', 'http://127.0.0.1'),
      range: fc.constantFrom('bytes=0-10', 'bytes=-1', 'bytes=999999999-', 'bytes=5-1', 'bytes=0-0,1-1,2-2'),
    },
    { requiredKeys: [] },
  );
}

function bodyArb() {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2048 }) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }).map((s) => new TextEncoder().encode(s)) },
    {
      weight: 2,
      arbitrary: fc
        .record(
          {
            jsonrpc: fc.constantFrom('2.0', '1.0'),
            id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
            method: fc.constantFrom('tools/list', 'tools/call', 'initialize', 'resources/read', 'ping', 'nope'),
          },
          { requiredKeys: [] },
        )
        .map((o) => new TextEncoder().encode(JSON.stringify(o))),
    },
  );
}

/** Spaces and controls cannot be sent raw in a request line; a client percent-encodes them. */
function sendable(target: string): string {
  return target.replace(/[\u0000-\u0020\u007f]|[^\u0000-\u00ff]/g, (c) => encodeURIComponent(c));
}

export function requestArb(slugs: readonly string[] = []): fc.Arbitrary<RawRequest> {
  return fc
    .record({ method: fc.constantFrom(...METHODS), path: pathArb(slugs), query: queryArb(), headers: headersArb(), body: bodyArb() })
    .map(({ method, path, query, headers, body }) => ({
      method,
      target: path === '*' ? '*' : sendable(`${path}${query}`),
      headers,
      body: method === 'GET' || method === 'HEAD' ? null : body,
    }));
}
