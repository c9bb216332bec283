// The /api family: version routing (keyed by version, D19), sunset, operation
// matching, parameter validation and the JSON reply of each outcome.
import { errorReply } from '../errors.js';
import { CACHE, apiHeaders, primaryVersion } from '../headers.js';
import { jsonText, utf8, type Reply, type Req } from '../http.js';
import type { Site, VersionState } from '../model.js';
import { canonicalQuery, parseQuery } from '../params.js';
import type { Runtime } from '../runtime.js';
import { API_PREFIX, apiBase } from '../urls.js';
import type { Family, Listings } from '../family.js';
import type { SiteModel } from '../site-model.js';
import type { Operation } from './operation.js';
import { operations } from './operations.js';

/** The route table, keyed by API version. A v2 is added beside v1 here. */
export const routeTable: Record<string, readonly Operation[]> = { v1: operations };

export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/**
 * The version whose headers an address under /api carries (D18): the one its
 * path names, or the current one when it names none the site has, as its 404
 * does.
 */
export function versionAt(site: Site, path: string): VersionState {
  const version = path.split('/')[2] ?? '';
  return (Object.hasOwn(site.versions, version) ? site.versions[version] : undefined) ?? primaryVersion(site);
}

interface Match {
  operation: Operation;
  pathParams: Record<string, string>;
}

/** Each operation's path template in segments, made once per version's list: the host printers match every API route of the manifest. */
const templates = new WeakMap<readonly Operation[], readonly string[][]>();

function templatesOf(ops: readonly Operation[]): readonly string[][] {
  let made = templates.get(ops);
  if (!made) templates.set(ops, (made = ops.map((o) => (o.path === '' ? [] : o.path.slice(1).split('/')))));
  return made;
}

/** Matches "/posts/abc" against the templates of a version's operations. */
export function matchOperation(ops: readonly Operation[], rest: string): Match | null {
  const parts = rest === '' ? [] : rest.slice(1).split('/');
  const all = templatesOf(ops);
  for (let k = 0; k < ops.length; k++) {
    const template = all[k]!;
    if (template.length !== parts.length || !template.every((seg, i) => (seg.startsWith('{') ? parts[i] !== '' : seg === parts[i])))
      continue;
    const pathParams: Record<string, string> = {};
    template.forEach((seg, i) => {
      if (seg.startsWith('{')) pathParams[seg.slice(1, -1)] = safeDecode(parts[i]!);
    });
    return { operation: ops[k]!, pathParams };
  }
  return null;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export async function respondApi(req: Req, rt: Runtime): Promise<Reply> {
  const { site } = rt;
  // D14: a trailing slash answers exactly like the path without it.
  const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
  const [, , version = '', ...restParts] = path.split('/');
  // Own keys only: /api/constructor names no version.
  const state = Object.hasOwn(site.versions, version) ? site.versions[version] : undefined;
  const ops = Object.hasOwn(routeTable, version) ? routeTable[version] : undefined;
  if (!state || !ops) return notFound(site, path);
  const rest = restParts.length ? `/${restParts.join('/')}` : '';
  if (state.status === 'sunset') {
    // The same resource under the successor, its query and all.
    const successor = state.successor
      ? `${apiBase(site, state.successor)}${rest}${req.search ? `?${req.search}` : ''}`
      : `${site.config.site_url}/developers#versioning`;
    return errorReply(site, 'gone', `API version ${version} was retired on ${state.sunset}.`, `Use ${successor} instead.`, {}, state);
  }
  const match = matchOperation(ops, rest);
  if (!match) return notFound(site, path);
  const { operation, pathParams } = match;
  const parsed = parseQuery(req.search, operation.parameters);
  if ('problem' in parsed) return errorReply(site, 'invalid_request', parsed.problem.message, parsed.problem.hint, {}, state);
  const canonical = canonicalQuery(parsed.values, operation.parameters);
  const opBase = `${apiBase(site, version)}${rest}`;
  const outcome = await operation.handle({
    site,
    runtime: rt,
    req,
    version,
    values: parsed.values,
    pathParams,
    canonical,
    self: (query) => (query ? `${opBase}?${query}` : opBase),
  });
  if ('error' in outcome) return errorReply(site, outcome.error, outcome.message, outcome.hint, {}, state);
  return { status: 200, headers: apiHeaders(site, state, CACHE[outcome.cache ?? 'content']), body: utf8(jsonText(outcome.body)) };
}

function notFound(site: Site, path: string): Reply {
  const current = Object.values(site.versions).find((v) => v.status === 'current')?.version ?? 'v1';
  return errorReply(
    site,
    'not_found',
    `Nothing is published at ${path}.`,
    `The discovery document at ${apiBase(site, current)} lists every endpoint.`,
  );
}

/**
 * The order the build asks for the operations' targets in, which is the
 * order of the manifest's routes: only an order, so an operation not named
 * here is still enumerated, after these, in the table's order.
 */
const ENUMERATION_ORDER = [
  'getApiIndex',
  'getProfile',
  'listServices',
  'listProjects',
  'getProject',
  'getPost',
  'listChanges',
  'getAvailability',
  'listPosts',
];

function enumerationRank(op: Operation): number {
  const at = ENUMERATION_ORDER.indexOf(op.operationId);
  return at === -1 ? ENUMERATION_ORDER.length : at;
}

/** The API's Family.listings: the targets of the operations with `showing`. */
export function apiListings(model: SiteModel, posts: readonly number[]): Listings {
  const targets: string[] = [];
  const showing: string[] = [];
  for (const [version, ops] of Object.entries(routeTable)) {
    if (!model.site.versions[version]) continue;
    for (const operation of ops) {
      if (!operation.showing) continue;
      const base = `${API_PREFIX}/${version}`;
      targets.push(...(operation.enumerate?.(model.site, base) ?? []));
      showing.push(...operation.showing(model, base, posts));
    }
  }
  return { targets, showing };
}

/** Every GET request target of the API that the build can answer ahead of time: each operation names its own (D38). */
export function enumerateApi(site: Site): string[] {
  const targets: string[] = [];
  for (const [version, ops] of Object.entries(routeTable)) {
    if (!site.versions[version]) continue;
    const ordered = [...ops].sort((a, b) => enumerationRank(a) - enumerationRank(b));
    for (const operation of ordered) targets.push(...(operation.enumerate?.(site, `${API_PREFIX}/${version}`) ?? []));
  }
  return targets;
}

/** The API as a family of respond() (core/families.ts): the functions' only one besides MCP. */
export const apiFamily: Family = {
  name: 'api',
  respond: (req, rt) => (isApiPath(req.path) ? respondApi(req, rt) : null),
  enumerate: (model) => enumerateApi(model.site),
  listings: apiListings,
};
