// Which MCP revision a request speaks (D36), checked the way each era
// requires: the initialize-based revisions may name themselves in the
// MCP-Protocol-Version header, or not at all; a 2026-07-28 request carries
// the per-request _meta envelope and mirrors it in its headers.
import type { Req } from '../http.js';
import { DEFAULT_PROTOCOL_VERSION, INITIALIZE_PROTOCOL_VERSIONS, STATELESS_PROTOCOL_VERSIONS } from './info.js';
import type { Exchange } from './methods.js';
import { ErrorCode, type Params, type Request } from './rpc.js';

const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** Which body field the Mcp-Name header mirrors, per method (2026-07-28). */
const NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };

/**
 * A request the 2026-07-28 transport refuses before it is dispatched: a
 * JSON-RPC error on HTTP 400, in the protocol's own shape so that a client
 * can tell a server of that revision from an older one and negotiate
 * (-32022 names the revisions spoken, -32020 a header that does not mirror
 * the body, -32602 an envelope that is missing or malformed).
 */
export class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const MIRROR_HINT =
  'A 2026-07-28 request carries params._meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities, and mirrors them in headers: MCP-Protocol-Version (the version), Mcp-Method (the method) and, for tools/call and resources/read, Mcp-Name (params.name or params.uri).';

/** A header that does not mirror the body (-32020), with the hint that says how to send one. */
export const mismatch = (detail: string) => new Refusal(ErrorCode.HeaderMismatch, `${detail} ${MIRROR_HINT}`);

/** Whether a revision string names the stateless era (2026-07-28 and after), spoken here or not. */
export const isStatelessRevision = (version: string) => /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= STATELESS_PROTOCOL_VERSIONS[0];

/** The protocol version a message claims in its per-request _meta (2026-07-28), if any. */
export function claimOf(params: Params | undefined): unknown {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta
    ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY]
    : undefined;
}

/** Mcp-Name may carry a non-ASCII value as =?base64?…?= (2026-07-28). */
function decodeHeaderValue(value: string): string | undefined {
  const match = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (!match) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * The era and revision of a request, checked in the order of the official
 * SDK's inbound ladder: a request whose _meta claims a revision is of the
 * stateless era and must mirror its envelope in the MCP-Protocol-Version,
 * Mcp-Method and Mcp-Name headers; one without a claim belongs to the
 * initialize-based revisions, and may name one in the header, or none
 * (2025-03-26 is assumed), unless the header names a later revision, which is
 * refused with the ones spoken here (-32022) if it is not one of them, and
 * else asked for its envelope. Throws Refusal; the caller checks that a legacy
 * revision is one this server speaks.
 */
export function exchangeOf(message: Request, req: Req): Exchange {
  const header = req.headers['mcp-protocol-version']?.trim();
  const claim = claimOf(message.params);
  if (claim !== undefined) return modernExchange(message, req, header, claim);
  if (header !== undefined && isStatelessRevision(header)) {
    // A revision this server does not speak is answered first with the ones it does, whatever that revision's envelope.
    if (!(STATELESS_PROTOCOL_VERSIONS as readonly string[]).includes(header)) throw unsupported(header);
    legacyMismatch(message, header);
  }
  return { era: 'legacy', version: header ?? DEFAULT_PROTOCOL_VERSION };
}

/** A stateless revision this server does not speak (-32022), with the ones it does. */
function unsupported(version: string): Refusal {
  return new Refusal(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version ${version}: this server speaks ${STATELESS_PROTOCOL_VERSIONS.join(', ')} with the _meta envelope, or initialize with one of ${INITIALIZE_PROTOCOL_VERSIONS.join(', ')}.`,
    { supported: [...STATELESS_PROTOCOL_VERSIONS], requested: version },
  );
}

/** A request with no _meta envelope that names a stateless revision in its header: refused, saying why. */
function legacyMismatch(message: Request, header: string): never {
  if (message.method === 'initialize')
    throw mismatch(
      `initialize belongs to the initialize-based revisions, but MCP-Protocol-Version is ${header}, which has no handshake: send initialize with MCP-Protocol-Version ${DEFAULT_PROTOCOL_VERSION} or later up to 2025-11-25, or no header; or skip it and call server/discover on ${header}.`,
    );
  throw new Refusal(
    ErrorCode.InvalidParams,
    `MCP-Protocol-Version is ${header}, but the request has no params._meta envelope (${PROTOCOL_VERSION_META_KEY}, ${CLIENT_CAPABILITIES_META_KEY}). ${MIRROR_HINT}`,
    { envelope: { missing: [PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY] } },
  );
}

/** A malformed _meta envelope (-32602), naming the key and what is wrong with it. */
function invalidEnvelope(key: string, problem: string): Refusal {
  return new Refusal(
    ErrorCode.InvalidParams,
    `Invalid _meta envelope for protocol revision 2026-07-28: ${key} ${problem}. ${MIRROR_HINT}`,
    {
      envelope: { key, problem },
    },
  );
}

/**
 * A 2026-07-28 request: its _meta envelope and the headers that mirror it.
 * Apart from exchangeOf: a function's code is compiled on its first call, so
 * the first request of an isolate compiles only the checks it runs.
 */
function modernExchange(message: Request, req: Req, header: string | undefined, claim: unknown): Exchange {
  const meta = message.params!._meta as Record<string, unknown>;
  if (typeof claim !== 'string') throw invalidEnvelope(PROTOCOL_VERSION_META_KEY, 'is not a string');
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities))
    throw invalidEnvelope(CLIENT_CAPABILITIES_META_KEY, capabilities === undefined ? 'is missing' : 'is not an object');
  if (header !== undefined && header !== claim) throw mismatch(`The body's _meta names ${claim} but MCP-Protocol-Version is ${header}.`);
  const method = req.headers['mcp-method']?.trim();
  if (method !== undefined && method !== message.method)
    throw mismatch(`The body names method ${message.method} but Mcp-Method is ${method}.`);
  if (!(STATELESS_PROTOCOL_VERSIONS as readonly string[]).includes(claim)) throw unsupported(claim);
  if (header === undefined) throw mismatch(`The body's _meta names ${claim} but the MCP-Protocol-Version header is missing.`);
  if (method === undefined) throw mismatch(`The body names method ${message.method} but the Mcp-Method header is missing.`);
  const field = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method]! : undefined;
  const value = field === undefined ? undefined : message.params?.[field];
  if (typeof value === 'string') {
    const name = req.headers['mcp-name']?.trim();
    if (name === undefined) throw mismatch(`The body carries params.${field} "${value}" but the Mcp-Name header is missing.`);
    if (decodeHeaderValue(name) !== value) throw mismatch(`The body carries params.${field} "${value}" but Mcp-Name is "${name}".`);
  }
  return { era: 'modern', version: claim };
}
