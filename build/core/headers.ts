// Header sets shared by the live core and the build's manifest, so that a
// precomputed file and a function response carry the same headers (D18, D38).
import type { Headers, Reply, Req } from './http.js';
import type { AiPreferences, Site, VersionState } from './model.js';

export const EXPOSED_HEADERS = [
  'ETag',
  'Link',
  'X-Api-Version',
  'X-Api-Deprecated',
  'Deprecation',
  'Sunset',
  'Content-Type',
  'Content-Length',
  'Vary',
  'Content-Usage',
  'X-Markdown-Tokens',
].join(', ');

export const CORS: Headers = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
};

export const CACHE = {
  /** Content changes only on a rebuild; revalidate with the ETag. */
  content: 'public, max-age=0, must-revalidate',
  /** Search and other computed answers may be reused for a minute. */
  computed: 'public, max-age=60',
  /** Failures and MCP are never cached. */
  none: 'no-store',
};

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  feedJson: 'application/feed+json; charset=utf-8',
  yaml: 'application/yaml; charset=utf-8',
  linkset: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  css: 'text/css; charset=utf-8',
} as const;

/** RFC 9745 structured date: "@" and Unix seconds. */
export function deprecationValue(date: string): string {
  return `@${Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000)}`;
}

/** RFC 8594 wants an HTTP-date (IMF-fixdate), which toUTCString produces. */
export function sunsetValue(date: string): string {
  return new Date(`${date}T00:00:00Z`).toUTCString();
}

/** Version headers of D18/D19 for one API version. */
export function versionHeaders(site: Site, state: VersionState): Headers {
  const headers: Headers = {
    'x-api-version': state.version,
    'x-api-deprecated': String(state.status !== 'current'),
    link: `<${site.config.site_url}/developers#versioning>; rel="deprecation"; type="text/html"`,
  };
  if (state.status !== 'current' && state.deprecated) headers['deprecation'] = deprecationValue(state.deprecated);
  if (state.status !== 'current' && state.sunset) headers['sunset'] = sunsetValue(state.sunset);
  return headers;
}

/** Every API and MCP response: CORS, version, nosniff (D18), and the AI usage preferences (D52). */
export function apiHeaders(site: Site, state: VersionState, cache: string): Headers {
  return {
    'content-type': CONTENT_TYPES.json,
    ...CORS,
    ...versionHeaders(site, state),
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
    ...usageHeaders(site),
  };
}

/**
 * site.yaml's ai_preferences as labels of the IETF AI Preferences vocabulary
 * (draft-ietf-aipref-vocab-08: `search`, `ai-use`, `train-ai`, each `y` or `n`).
 */
const AIPREF_LABELS = { search: 'search', ai_input: 'ai-use', ai_train: 'train-ai' } as const;

/** The Content-Usage value (draft-ietf-aipref-attach), or null when the author states nothing. */
export function contentUsage(prefs: AiPreferences | null | undefined): string | null {
  const parts = Object.entries(AIPREF_LABELS).flatMap(([key, label]) => {
    const v = prefs?.[key as keyof AiPreferences];
    return v ? [`${label}=${v === 'yes' ? 'y' : 'n'}`] : [];
  });
  return parts.length ? parts.join(', ') : null;
}

/** Content-Usage on pages, twins and the API (D52); nothing when nothing is stated. */
export function usageHeaders(site: Site): Headers {
  const value = contentUsage(site.config.ai_preferences);
  return value ? { 'content-usage': value } : {};
}

/**
 * The headers of a preflight on an API or MCP address: every D18 header, as
 * the GET or POST it precedes carries them, but no Content-Type, since it has
 * no body; never cached, like the failures and MCP.
 */
export function apiPreflightHeaders(site: Site, state: VersionState): Headers {
  const { 'content-type': _none, ...headers } = apiHeaders(site, state, CACHE.none);
  return headers;
}

/** The version the site treats as current for headers outside /api/vN (MCP, the root documents). */
export function primaryVersion(site: Site): VersionState {
  const states = Object.values(site.versions);
  return states.find((s) => s.status === 'current') ?? states[states.length - 1]!;
}

/** A CORS preflight (D15): 204 with what the address allows, after `base` (CORS, or an endpoint's own headers). */
export function preflight(req: Req, methods: string, allowHeaders = 'Accept, Content-Type, If-None-Match', base: Headers = CORS): Reply {
  return {
    status: 204,
    headers: {
      ...base,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? allowHeaders,
      'access-control-max-age': '86400',
      allow: methods,
      vary: 'Access-Control-Request-Headers',
    },
    body: null,
  };
}
