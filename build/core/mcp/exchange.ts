// Which MCP revision a request speaks (D36), checked the way each era
// requires: the initialize-based revisions may name themselves in the
// MCP-Protocol-Version header, or not at all; a 2026-07-28 request carries
// the per-request _meta envelope and mirrors it in its headers.
import type { Req } from '../http.js';
import { DEFAULT_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS, STATELESS_PROTOCOL_VERSIONS } from './info.js';
import type { Exchange } from './methods.js';
import type { Params, Request } from './rpc.js';

const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** Which body field the Mcp-Name header mirrors, per method (2026-07-28). */
const NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };

/** A request whose protocol headers or envelope do not fit: answered 400 with the envelope. */
export class ProtocolMismatch extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export const MIRROR_HINT =
  'A 2026-07-28 request carries params._meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities, and mirrors them in headers: MCP-Protocol-Version (the version), Mcp-Method (the method) and, for tools/call and resources/read, Mcp-Name (params.name or params.uri).';

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
 * The era and revision of a request, checked the way each era requires:
 * 2026-07-28 requests carry a valid _meta envelope and mirror it in the
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; the others may name
 * an initialize-era revision in the header, or none (2025-03-26 is assumed).
 */
export function exchangeOf(message: Request, req: Req): Exchange {
  const header = req.headers['mcp-protocol-version']?.trim();
  const claim = claimOf(message.params);
  if (claim !== undefined) return modernExchange(message, req, header, claim);
  if (header !== undefined && (STATELESS_PROTOCOL_VERSIONS as readonly string[]).includes(header)) legacyMismatch(message, header);
  return { era: 'legacy', version: header ?? DEFAULT_PROTOCOL_VERSION };
}

/** A request with no _meta envelope that names a stateless revision in its header: refused, saying why. */
function legacyMismatch(message: Request, header: string): never {
  if (message.method === 'initialize')
    throw new ProtocolMismatch(
      `initialize belongs to the initialize-based revisions, but MCP-Protocol-Version is ${header}, which has no handshake.`,
      `Send initialize with MCP-Protocol-Version ${DEFAULT_PROTOCOL_VERSION} or later up to 2025-11-25, or no header; or skip it and call server/discover on ${header}.`,
    );
  throw new ProtocolMismatch(
    `MCP-Protocol-Version is ${header}, but the request has no params._meta envelope (${PROTOCOL_VERSION_META_KEY}, ${CLIENT_CAPABILITIES_META_KEY}).`,
    MIRROR_HINT,
  );
}

/**
 * A 2026-07-28 request: its _meta envelope and the headers that mirror it.
 * Apart from exchangeOf: a function's code is compiled on its first call, so
 * the first request of an isolate compiles only the checks it runs.
 */
function modernExchange(message: Request, req: Req, header: string | undefined, claim: unknown): Exchange {
  const mismatch = (detail: string) => new ProtocolMismatch(detail, MIRROR_HINT);
  const meta = message.params!._meta as Record<string, unknown>;
  if (typeof claim !== 'string') throw mismatch(`The _meta envelope's ${PROTOCOL_VERSION_META_KEY} is not a string.`);
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities))
    throw mismatch(`The _meta envelope's ${CLIENT_CAPABILITIES_META_KEY} is missing or not an object.`);
  if (!(STATELESS_PROTOCOL_VERSIONS as readonly string[]).includes(claim)) {
    throw new ProtocolMismatch(
      `The _meta envelope names protocol version ${claim}, which this server does not speak.`,
      `Use ${STATELESS_PROTOCOL_VERSIONS.join(', ')} with the _meta envelope, or initialize with one of ${MCP_PROTOCOL_VERSIONS.filter((v) => !(STATELESS_PROTOCOL_VERSIONS as readonly string[]).includes(v)).join(', ')}.`,
    );
  }
  if (header === undefined) throw mismatch(`The body's _meta names ${claim} but the MCP-Protocol-Version header is missing.`);
  if (header !== claim) throw mismatch(`The body's _meta names ${claim} but MCP-Protocol-Version is ${header}.`);
  const method = req.headers['mcp-method']?.trim();
  if (method === undefined) throw mismatch(`The body names method ${message.method} but the Mcp-Method header is missing.`);
  if (method !== message.method) throw mismatch(`The body names method ${message.method} but Mcp-Method is ${method}.`);
  const field = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method]! : undefined;
  const value = field === undefined ? undefined : message.params?.[field];
  if (typeof value === 'string') {
    const name = req.headers['mcp-name']?.trim();
    if (name === undefined) throw mismatch(`The body carries params.${field} "${value}" but the Mcp-Name header is missing.`);
    if (decodeHeaderValue(name) !== value) throw mismatch(`The body carries params.${field} "${value}" but Mcp-Name is "${name}".`);
  }
  return { era: 'modern', version: claim };
}
