// The error envelope (D17).
import { CACHE, CORS, apiHeaders, primaryVersion } from './headers.js';
import { jsonText, utf8, type Headers, type Reply } from './http.js';
import type { Site, VersionState } from './model.js';

export type ErrorCode =
  'not_found' | 'invalid_request' | 'method_not_allowed' | 'unsupported_media_type' | 'payload_too_large' | 'internal_error' | 'gone';

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

/**
 * A deployment that cannot answer correctly: a precomputed file is missing,
 * or comes from another build (D55). Answered 500 with what is wrong and the
 * fix, never with a guess.
 */
export class DeploymentError extends Error {
  override name = 'DeploymentError';
  constructor(
    message: string,
    readonly hint = 'Rebuild the site with `folio build` and deploy the whole output directory, so that every file comes from the same build.',
  ) {
    super(message);
  }
}

/** The 500 answer when anything throws: never a stack trace; what is wrong and the fix when the deployment is at fault. */
export function internalError(site: Site | null, error?: unknown): Reply {
  const [message, hint] =
    error instanceof DeploymentError
      ? [error.message, error.hint]
      : ['The server failed to answer this request.', 'Try again later; if it persists, report the URL to the site owner.'];
  if (site) return errorReply(site, 'internal_error', message, hint);
  return {
    status: 500,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...CORS,
      'cache-control': CACHE.none,
      'x-content-type-options': 'nosniff',
    },
    body: utf8(
      jsonText({
        error: { code: 'internal_error', status: 500, message, hint, documentation_url: '/developers', openapi_url: '/openapi.json' },
      }),
    ),
  };
}
