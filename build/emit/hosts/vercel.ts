// Vercel: dist/vercel.json from the manifest (D39). Vercel applies the
// `rewrites` of vercel.json only after its own files, so a page's index.html
// would always win over Accept negotiation; the same rewrites and headers are
// therefore written as `routes`, which run in order before the files and take
// the same `has`/`missing` conditions. /.well-known cannot be rewritten on
// Vercel: extension-less documents there are not served (docs/hosts.md).
import type { Headers } from '../../core/http.js';
import type { FileBytes } from '../atomic.js';
import { VERCEL } from './limits.js';
import {
  apiRoutes,
  byShape,
  fileRoutes,
  fileUrl,
  negotiatedRules,
  shapeSource,
  type FileRoute,
  type HostPlan,
  type QueryRoute,
} from './plan.js';

/** The function (api/folio.ts) and the query parameter carrying the original path. */
export const VERCEL_FUNCTION = '/api/folio';
export const PATH_PARAM = '__folio_path';

interface Condition {
  type: 'query' | 'header';
  key: string;
  value?: string;
}

/** The header the function marks its own reads of dist/ files with (functions/_shared/origin.ts INTERNAL). */
export const INTERNAL_READ = 'x-folio-internal-read';
/** On a route that sends files to the function (a twin, for its own headers): the function's own read of the file passes it by. */
const notOwnRead: Condition[] = [{ type: 'header', key: INTERNAL_READ }];

export interface VercelRoute {
  src?: string;
  dest?: string;
  methods?: string[];
  has?: Condition[];
  missing?: Condition[];
  headers?: Headers;
  status?: number;
  continue?: boolean;
  handle?: 'filesystem' | 'hit';
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exact = (path: string) => `^${escape(path)}/?$`;
const toFunction = (path: string) => `${VERCEL_FUNCTION}?${PATH_PARAM}=${path}`;
const READ = ['GET', 'HEAD'];

/** Paths sharing a header set, as few `src` alternations as fit Vercel's source length. */
function headerRoutes(routes: { path: string; headers: Headers }[]): VercelRoute[] {
  const groups = new Map<string, { headers: Headers; paths: string[] }>();
  for (const r of routes) {
    const key = JSON.stringify(r.headers);
    const group = groups.get(key) ?? { headers: r.headers, paths: [] };
    group.paths.push(escape(r.path));
    groups.set(key, group);
  }
  const out: VercelRoute[] = [];
  for (const { headers, paths } of groups.values()) {
    let chunk: string[] = [];
    const flush = () => {
      if (chunk.length) out.push({ src: `^(?:${chunk.join('|')})$`, headers, continue: true });
      chunk = [];
    };
    for (const p of paths) {
      if (`^(?:${[...chunk, p].join('|')})$`.length > VERCEL.sourceLength) flush();
      chunk.push(p);
    }
    flush();
  }
  return out;
}

/**
 * Pages in as few routes as fit: one capture group carries the matched path
 * to the function. An item shape is one route however many items it has;
 * its item takes no dot, so the twins beside the pages stay files.
 */
function pageRoutes(rules: readonly { path: string; shape: boolean }[]): VercelRoute[] {
  const out: VercelRoute[] = [];
  if (rules.some((r) => r.path === '/')) out.push({ src: '^/$', dest: toFunction('/') });
  const dest = toFunction('$1');
  for (const r of rules.filter((r) => r.shape)) out.push({ src: `^(${shapeSource(r.path)})/?$`, dest });
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.length) out.push({ src: `^(${chunk.join('|')})/?$`, dest });
    chunk = [];
  };
  for (const path of rules.filter((r) => !r.shape && r.path !== '/').map((r) => escape(r.path))) {
    if (`^(${[...chunk, path].join('|')})/?$`.length > VERCEL.sourceLength) flush();
    chunk.push(path);
  }
  flush();
  return out;
}

/** An exact query: its own parameters with exact values, every other declared one absent. */
function queryRoute(target: QueryRoute, declared: string[]): VercelRoute {
  const keys = new Set(target.query.map(([k]) => k));
  const route: VercelRoute = { src: exact(target.path), methods: READ };
  if (target.query.length) route.has = target.query.map(([key, value]) => ({ type: 'query', key, value: `^${escape(value)}$` }));
  const missing = declared.filter((k) => !keys.has(k)).map((key) => ({ type: 'query' as const, key }));
  if (missing.length) route.missing = missing;
  return { ...route, dest: fileUrl(target.file), headers: target.headers };
}

/**
 * Headers of the files of an item shape (the twins of posts, tags, projects):
 * one route per shape in Vercel's `hit` phase, which runs only when a file
 * was found, so a missing item's 404 from the function keeps its own headers.
 */
function shapeHeaderRoutes(shapes: { path: string; item: FileRoute }[]): VercelRoute[] {
  if (shapes.length === 0) return [];
  return [{ handle: 'hit' }, ...shapes.map((s) => ({ src: `^${shapeSource(s.path)}$`, headers: s.item.headers, continue: true }))];
}

export function vercelRoutes(plan: HostPlan): VercelRoute[] {
  const { manifest } = plan;
  const files = fileRoutes(plan).filter((r) => !r.path.startsWith('/.well-known/') || fileUrl(r.file) === r.path);
  const { plain, queried } = apiRoutes(plan);
  const own = byShape(
    plan,
    files.filter((r) => fileUrl(r.file) === r.path),
    (r) => JSON.stringify(r.headers),
  );
  // Item files whose headers differ one by one (a twin's X-Markdown-Tokens)
  // cannot share one header route: the function serves them from their files,
  // which it reads past this route (notOwnRead), or the read would come back to it.
  const mixed = [...new Set(own.filter((r) => !r.shape).flatMap((r) => r.of ?? []))];
  return [
    // Addresses that moved (D48): a 301 before anything else could answer them.
    ...Object.entries(manifest.redirects ?? {}).map(([from, to]) => ({ src: exact(from), status: 301, headers: { Location: to } })),
    // Files served at their own path: their headers, then on to the files.
    ...headerRoutes(own.filter((r) => !r.of).map((r) => r.item)),
    ...mixed.map((shape) => ({ src: `^(${shapeSource(shape)})$`, methods: READ, dest: toFunction('$1'), missing: notOwnRead })),
    // Extension-less documents outside /.well-known live in a folder's index file.
    ...files
      .filter((r) => fileUrl(r.file) !== r.path)
      .map((r) => ({ src: exact(r.path), methods: READ, dest: fileUrl(r.file), headers: r.headers })),
    // Precomputed API answers: exact query strings of fixed values (D8-D11), then one-off paths.
    ...queried.flatMap((qp) => qp.targets.map((t) => queryRoute(t, qp.declared))),
    ...plain.map((r) => ({ src: exact(r.path), methods: READ, dest: fileUrl(r.file), headers: r.headers })),
    // Pages negotiate on Accept (D21): to the function, before their index.html.
    ...pageRoutes(negotiatedRules(plan)),
    { handle: 'filesystem' as const },
    // Anything without a file: the core (errors, any paging, search, MCP, 404).
    { src: '^(/.*)$', dest: toFunction('$1') },
    ...shapeHeaderRoutes(own.filter((r) => r.shape)),
  ];
}

export function vercel(plan: HostPlan): FileBytes[] {
  const config = {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    // Generated by `folio build` from _folio/manifest.json; copy it to the project root to deploy (docs/hosts.md).
    outputDirectory: 'dist',
    routes: vercelRoutes(plan),
  };
  return [{ path: 'vercel.json', body: `${JSON.stringify(config, null, 2)}\n` }];
}
