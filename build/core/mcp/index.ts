// POST /mcp (D36, D37): MCP's Streamable HTTP transport, stateless and
// JSON-only, as a route family of respond().
//
// Why not @modelcontextprotocol/server's createMcpHandler: its 2025-era leg
// (the stateless fallback) answers a bare POST without
// `Accept: application/json, text/event-stream` with 406, answers the
// official clients with text/event-stream, and answers 405/415 outside the
// D17 envelope; its 2026-07-28 leg serves subscriptions/listen as a stream;
// and importing it costs about 150 ms of zod schema construction per cold
// isolate (measured in Node 20), paid by every function. The protocol
// surface of a read-only server is small, so it is implemented here and
// tested against both official clients. Its types and constants are the
// spec's, checked against the SDK's.
//
// What fails where:
// 1. HTTP, answered with the D17 envelope: the method (405 with Allow),
//    OPTIONS (the CORS preflight), the media type (415), the size (413), and
//    an MCP-Protocol-Version header naming an initialize-based revision this
//    server does not speak (400, as those revisions ask).
// 2. JSON-RPC, answered as the protocol's own error objects: malformed JSON
//    -32700 and an invalid message -32600 (400, as the official SDKs answer
//    input they cannot accept); an unknown method -32601, bad params or an
//    unknown tool -32602 (200; on 2026-07-28 an unknown method is 404);
//    2026-07-28's refusals before dispatch, a revision not spoken (-32022
//    with the ones that are), a header that does not mirror the body
//    (-32020) and a missing or malformed envelope (-32602), on 400, as that
//    revision requires: a dual-era client reads them to negotiate.
//    Notifications and posted responses are acknowledged with 202.
// No Mcp-Session-Id is ever issued and no request ever opens a stream.
import { DeploymentError, errorReply } from '../errors.js';
import type { Family } from '../family.js';
import { apiHeaders, apiPreflightHeaders, CACHE, preflight, primaryVersion } from '../headers.js';
import { jsonText, utf8, type Reply, type Req } from '../http.js';
import type { Runtime } from '../runtime.js';
import { claimOf, exchangeOf, mismatch, Refusal } from './exchange.js';
import { DEFAULT_PROTOCOL_VERSION, MCP_PATH, MCP_PROTOCOL_VERSIONS } from './info.js';
import { answer, type Exchange } from './methods.js';
import { classify, ErrorCode, failure, RpcError, success, type Notification, type Request, type Response } from './rpc.js';

export { MCP_PATH, MCP_PROTOCOL_VERSIONS, serverInfo } from './info.js';
export { tools } from './tools.js';

export const MCP_METHODS = 'POST, OPTIONS';

/** The most messages one 2025-03-26 batch may hold. */
export const MAX_BATCH = 50;

/** Request headers a browser-based MCP client sends (preflight). */
export const MCP_REQUEST_HEADERS = 'Accept, Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, Authorization';

const decoder = new TextDecoder('utf-8', { fatal: true });

export const mcpFamily: Family = {
  name: 'mcp',
  // With a trailing slash too, as a client configured with one sends it: not a read-only address that answers 405.
  respond: (req, rt) => (req.path === MCP_PATH || req.path === `${MCP_PATH}/` ? respondMcp(req, rt) : null),
  // Nothing to precompute: /mcp answers POST only.
  enumerate: () => [],
};

function mcpHeaders(rt: Runtime): Record<string, string> {
  return apiHeaders(rt.site, primaryVersion(rt.site), CACHE.none);
}

function json(rt: Runtime, status: number, body: Response | Response[]): Reply {
  return { status, headers: mcpHeaders(rt), body: utf8(jsonText(body)) };
}

function accepted(rt: Runtime): Reply {
  const { 'content-type': _none, ...headers } = mcpHeaders(rt);
  return { status: 202, headers, body: null };
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export async function respondMcp(req: Req, rt: Runtime): Promise<Reply> {
  // Each refusal is a function of its own, compiled only when a request needs it (see modernExchange).
  if (req.method === 'OPTIONS') return mcpPreflight(req, rt);
  if (req.method !== 'POST') return notPost(req, rt);
  if (mediaType(req.headers['content-type']) !== 'application/json') return notJson(req, rt);
  if (req.tooLarge) return tooLarge(rt);
  const header = req.headers['mcp-protocol-version']?.trim();

  let body: unknown;
  try {
    body = JSON.parse(decoder.decode(req.body ?? new Uint8Array()));
  } catch {
    return notJsonRpc(rt);
  }
  if (Array.isArray(body)) return unspoken(header) ? unknownVersion(header!, rt) : respondBatch(body, req, rt);

  const message = classify(body);
  if (message.kind === 'invalid') return json(rt, 400, failure(message.id, ErrorCode.InvalidRequest, `Invalid request: ${message.reason}`));
  if (message.kind === 'response') return accepted(rt);
  if (message.kind === 'notification') return acknowledge(message.message, header, rt);
  let exchange: Exchange;
  try {
    exchange = exchangeOf(message.message, req);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return json(rt, 400, failure(message.message.id, error.code, error.message, error.data));
  }
  if (exchange.era === 'legacy' && unspoken(header)) return unknownVersion(header!, rt);
  const response = await dispatch(message.message, rt, exchange);
  // 2026-07-28 answers a method it does not define with 404, so that a client can tell it from a failed call.
  const unknown = exchange.era === 'modern' && 'error' in response && response.error.code === ErrorCode.MethodNotFound;
  return json(rt, unknown ? 404 : 200, response);
}

/** Whether an MCP-Protocol-Version header names a revision this server does not speak. */
function unspoken(header: string | undefined): boolean {
  return header !== undefined && !MCP_PROTOCOL_VERSIONS.includes(header);
}

/** The CORS preflight of /mcp: the MCP request headers a browser-based client sends. */
function mcpPreflight(req: Req, rt: Runtime): Reply {
  return preflight(req, MCP_METHODS, MCP_REQUEST_HEADERS, apiPreflightHeaders(rt.site, primaryVersion(rt.site)));
}

/** GET would open a server-sent event stream in Streamable HTTP; a stateless function holds none (D36). */
function notPost(req: Req, rt: Runtime): Reply {
  return errorReply(
    rt.site,
    'method_not_allowed',
    `${req.method} is not allowed on ${MCP_PATH}; this endpoint takes JSON-RPC messages by POST and never opens a stream.`,
    `POST a JSON-RPC message to ${rt.site.config.site_url}${MCP_PATH} with Content-Type: application/json, for example {"jsonrpc":"2.0","id":1,"method":"tools/list"}.`,
    { allow: MCP_METHODS },
  );
}

function notJson(req: Req, rt: Runtime): Reply {
  const given = req.headers['content-type'] ? `Content-Type ${req.headers['content-type']}` : 'no Content-Type';
  return errorReply(
    rt.site,
    'unsupported_media_type',
    `${MCP_PATH} takes application/json; the request has ${given}.`,
    'Send the JSON-RPC message with the header Content-Type: application/json.',
  );
}

function tooLarge(rt: Runtime): Reply {
  return errorReply(
    rt.site,
    'payload_too_large',
    'The request body is larger than 1 MiB.',
    `Send one JSON-RPC message per request; no message of ${MCP_PATH} needs more than a few kilobytes.`,
  );
}

function unknownVersion(header: string, rt: Runtime): Reply {
  return errorReply(
    rt.site,
    'invalid_request',
    `MCP-Protocol-Version ${JSON.stringify(header)} is not a revision this server speaks.`,
    `Use one of ${MCP_PROTOCOL_VERSIONS.join(', ')}, or leave the header out to use ${DEFAULT_PROTOCOL_VERSION}.`,
  );
}

function notJsonRpc(rt: Runtime): Reply {
  return json(
    rt,
    400,
    failure(null, ErrorCode.ParseError, 'Parse error: the request body is not JSON. Send one JSON-RPC 2.0 message as a JSON object.'),
  );
}

/**
 * A notification is acknowledged (202), unless its _meta claims another
 * revision than its header (-32020), or, without a claim, its header names
 * a revision this server does not speak.
 */
function acknowledge(notification: Notification, header: string | undefined, rt: Runtime): Reply {
  const claim = claimOf(notification.params);
  if (claim === undefined) return unspoken(header) ? unknownVersion(header!, rt) : accepted(rt);
  if (header !== undefined && claim !== header) {
    // The claim may be any JSON value: a string is named, anything else only by its type.
    const named =
      typeof claim === 'string'
        ? claim
        : `a value that is not a string (${claim === null ? 'null' : Array.isArray(claim) ? 'an array' : typeof claim})`;
    const refusal = mismatch(`The notification's _meta names protocol version ${named} but MCP-Protocol-Version is ${header}.`);
    return json(rt, 400, failure(null, refusal.code, refusal.message));
  }
  return accepted(rt);
}

/** 2025-03-26 allows a batch; later revisions send one message per POST. */
async function respondBatch(batch: unknown[], req: Req, rt: Runtime): Promise<Reply> {
  if (batch.length === 0) return json(rt, 400, failure(null, ErrorCode.InvalidRequest, 'Invalid request: an empty batch.'));
  // Bounded, as a body is: a batch of thousands of searches would hold a function for seconds and answer hundreds of MB.
  if (batch.length > MAX_BATCH)
    return json(
      rt,
      400,
      failure(
        null,
        ErrorCode.InvalidRequest,
        `Invalid request: a batch of ${batch.length} messages; this server answers at most ${MAX_BATCH} at once. Send the rest in further requests.`,
      ),
    );
  const responses: Response[] = [];
  for (const element of batch) {
    const message = classify(element);
    if (message.kind === 'invalid') responses.push(failure(message.id, ErrorCode.InvalidRequest, `Invalid request: ${message.reason}`));
    else if (message.kind === 'request') {
      if (claimOf(message.message.params) !== undefined) {
        responses.push(
          failure(message.message.id, ErrorCode.InvalidRequest, 'Invalid request: a 2026-07-28 request cannot be part of a batch.'),
        );
        continue;
      }
      let exchange: Exchange;
      try {
        exchange = exchangeOf(message.message, req);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        responses.push(failure(message.message.id, ErrorCode.InvalidRequest, `Invalid request: ${error.message}`));
        continue;
      }
      responses.push(await dispatch(message.message, rt, exchange));
    }
  }
  return responses.length ? json(rt, 200, responses) : accepted(rt);
}

async function dispatch(message: Request, rt: Runtime, exchange: Exchange): Promise<Response> {
  try {
    return success(message.id, await answer(message.method, message.params ?? {}, rt, exchange));
  } catch (error) {
    if (error instanceof RpcError) return failure(message.id, error.code, error.message, error.data);
    console.error(`folio: MCP ${message.method} failed:`, error);
    // A deployment whose files do not fit together is named with its fix, as the API's 500 names it.
    if (error instanceof DeploymentError)
      return failure(message.id, ErrorCode.InternalError, `Internal error: ${error.message}`, { hint: error.hint });
    return failure(message.id, ErrorCode.InternalError, 'Internal error: the server failed to answer this request.');
  }
}
