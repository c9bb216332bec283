// The error envelope (D17).
import { CACHE, CORS, apiHeaders, primaryVersion } from './headers.js';
import { jsonText, utf8, type Headers, type Reply } from './http.js';
import type { Site, VersionState } from './model.js';

export type ErrorCode =
  | 'not_found'
  | 'invalid_request'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'internal_error'
  | 'gone';

export const ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
};

export interface ErrorBody {
  error: {
    code: ErrorCode;
    status: number;
    message: string;
    hint: string;
    documentation_url: string;
    openapi_url: string;
  };
}

export function errorBody(site: Site, code: ErrorCode, message: string, hint: string): ErrorBody {
  return {
    error: {
      code,
      status: ERROR_STATUS[code],
      message,
      hint,
      documentation_url: `${site.config.site_url}/developers`,
      openapi_url: `${site.config.site_url}/openapi.json`,
    },
  };
}

/** A failure answered in the envelope, with the same CORS and version headers as a success. */
export function errorReply(
  site: Site,
  code: ErrorCode,
  message: string,
  hint: string,
  extra: Headers = {},
  state: VersionState = primaryVersion(site),
): Reply {
  return {
    status: ERROR_STATUS[code],
    headers: { ...apiHeaders(site, state, CACHE.none), ...extra },
    body: utf8(jsonText(errorBody(site, code, message, hint))),
  };
}

/** The 500 answer when anything throws: never a stack trace. */
export function internalError(site: Site | null): Reply {
  if (site) return errorReply(site, 'internal_error', 'The server failed to answer this request.', 'Try again later; if it persists, report the URL to the site owner.');
  return {
    status: 500,
    headers: { 'content-type': 'application/json; charset=utf-8', ...CORS, 'cache-control': CACHE.none, 'x-content-type-options': 'nosniff' },
    body: utf8(jsonText({ error: { code: 'internal_error', status: 500, message: 'The server failed to answer this request.', hint: 'Try again later; if it persists, report the URL to the site owner.', documentation_url: '/developers', openapi_url: '/openapi.json' } })),
  };
}
