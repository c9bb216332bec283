// JSON-RPC 2.0 as MCP uses it: the message shapes, the error codes, and the
// responses. Pure; the HTTP layer (./index.ts) decides the status codes.

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2025-era resources/read of an unknown URI; 2026-07-28 uses InvalidParams. */
  ResourceNotFound: -32002,
  /** 2026-07-28: a header that should mirror the body is missing or does not. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the revision a request claims is not spoken here; data names the ones that are. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type Id = string | number;
export type Params = Record<string, unknown>;

export interface Request {
  jsonrpc: '2.0';
  id: Id;
  method: string;
  params?: Params;
}

export interface Notification {
  jsonrpc: '2.0';
  method: string;
  params?: Params;
}

export type Response =
  | { jsonrpc: '2.0'; id: Id; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: Id | null; error: { code: number; message: string; data?: unknown } };

/** A JSON-RPC error to answer with. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export type Message =
  | { kind: 'request'; message: Request }
  | { kind: 'notification'; message: Notification }
  /** A client's answer to a server request; this server sends none, so it is acknowledged and dropped. */
  | { kind: 'response' }
  | { kind: 'invalid'; id: Id | null; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one element of a request body is. */
export function classify(value: unknown): Message {
  if (!isObject(value)) return { kind: 'invalid', id: null, reason: 'A JSON-RPC message is an object.' };
  const id = typeof value.id === 'string' || (typeof value.id === 'number' && Number.isFinite(value.id)) ? value.id : null;
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'The message must carry "jsonrpc": "2.0".' };
  if (!('method' in value)) {
    if (id !== null && ('result' in value || 'error' in value)) return { kind: 'response' };
    return { kind: 'invalid', id, reason: 'The message has no "method".' };
  }
  if (typeof value.method !== 'string' || value.method === '')
    return { kind: 'invalid', id, reason: '"method" must be a non-empty string.' };
  if ('params' in value && value.params !== undefined && !isObject(value.params))
    return { kind: 'invalid', id, reason: '"params" must be an object.' };
  const params = value.params as Params | undefined;
  if (!('id' in value)) return { kind: 'notification', message: { jsonrpc: '2.0', method: value.method, params } };
  if (id === null) return { kind: 'invalid', id: null, reason: '"id" must be a string or a number.' };
  return { kind: 'request', message: { jsonrpc: '2.0', id, method: value.method, params } };
}

export function success(id: Id, result: Record<string, unknown>): Response {
  return { jsonrpc: '2.0', id, result };
}

export function failure(id: Id | null, code: number, message: string, data?: unknown): Response {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}
