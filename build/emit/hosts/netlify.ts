// Netlify: dist/netlify.toml from the manifest (D39). Netlify also reads
// dist/_headers and dist/_redirects, which the Cloudflare printer writes with
// exact paths and 200 rewrites only, so they mean the same on both hosts; this
// file adds what Netlify needs on top. Its redirect rules live here rather than
// in _redirects because the two hosts order rules and files oppositely
// (Cloudflare applies _redirects before its files, Netlify after), and a
// catch-all that is right on one would break the other.
import type { Headers } from '../../core/http.js';
import type { FileBytes } from '../atomic.js';
import { cloudflareStatic } from './cloudflare.js';
import { apiRoutes, fileRoutes, fileUrl, GENERATED, negotiatedRules, type FileRoute, type HostPlan, type QueryPath } from './plan.js';

/** The path prefix of the folio function (functions/_netlify/folio.ts `config.path`). */
export const NETLIFY_FUNCTION = '/_folio/netlify';
/** Where the function reads dist/'s files (functions/_netlify/folio.ts `files`): served as the files, before any rule sends them on. */
export const NETLIFY_FILES = '/_folio/file';

export interface NetlifyRedirect {
  from: string;
  to: string;
  /** Query parameters the request must carry; a value ":name" matches any value. */
  query?: [string, string][];
  /** Apply even when a file exists at `from`. */
  force: boolean;
}

const toFunction = (path: string) => `${NETLIFY_FUNCTION}${path}`;

/**
 * Netlify matches a rule when the request carries the rule's parameters, and
 * ignores any others. So before each precomputed answer come rules that send
 * a request carrying one more declared parameter to the function; answers
 * with more parameters come first and win over those escapes.
 */
export function queryRules(qp: QueryPath): NetlifyRedirect[] {
  const used = new Set(qp.targets.flatMap((t) => t.query.map(([k]) => k)));
  const rules: NetlifyRedirect[] = qp.declared
    .filter((k) => !used.has(k))
    .map((k) => ({ from: qp.path, query: [[k, `:${k}`]], to: toFunction(qp.path), force: true }));
  for (const target of qp.targets) {
    const keys = new Set(target.query.map(([k]) => k));
    for (const k of qp.declared) {
      if (used.has(k) && !keys.has(k))
        rules.push({ from: qp.path, query: [...target.query, [k, `:${k}`]], to: toFunction(qp.path), force: true });
    }
    rules.push({ from: qp.path, query: target.query, to: fileUrl(target.file), force: true });
  }
  return rules;
}

/** A Netlify `from` as a regex: a `:placeholder` is one whole segment, `*` the rest. */
export function netlifyPattern(from: string): RegExp {
  const source = from
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * Pages negotiate on Accept (D21): past their index.html, to the function.
 * A placeholder takes a whole segment, so `/blog/:item` also takes the twins
 * beside the pages (/blog/x.md): the function answers those from their files.
 */
function pageRules(plan: HostPlan): NetlifyRedirect[] {
  return negotiatedRules(plan).map(({ path }) => ({ from: path, to: toFunction(path), force: true }));
}

export function netlifyRedirects(plan: HostPlan): NetlifyRedirect[] {
  const { plain, queried } = apiRoutes(plan);
  const inCloudflare = new Set(cloudflareStatic(plan).map((r) => r.path));
  const pages = pageRules(plan);
  const paged = pages.map((p) => netlifyPattern(p.from));
  return [
    // The function's own reads: the files themselves. A rewrite is not matched again, so a forced page rule
    // below (which takes /blog/x.html too) cannot send the read back to the function.
    { from: `${NETLIFY_FILES}/*`, to: '/:splat', force: true },
    ...queried.flatMap(queryRules),
    // Operations without query parameters ignore any query (D11); per-item ones reach the function through /*.
    ...plain.map((r) => ({ from: r.path, to: fileUrl(r.file), force: true })),
    ...pages,
    // Extension-less documents the shared _redirects does not already rewrite.
    ...fileRoutes(plan)
      .filter((r) => fileUrl(r.file) !== r.path && !inCloudflare.has(r.path) && !paged.some((re) => re.test(r.path)))
      .map((r) => ({ from: r.path, to: fileUrl(r.file), force: false })),
    // Anything without a file: the core (errors, any paging, search, MCP, 404).
    { from: '/*', to: `${NETLIFY_FUNCTION}/:splat`, force: false },
  ];
}

/**
 * Headers of every file Netlify serves for folio that the shared _headers does
 * not cover. Rewritten files get a rule under both their address and their
 * file path, whichever of the two Netlify matches.
 */
export function netlifyHeaders(plan: HostPlan): { for: string; headers: Headers }[] {
  const inCloudflare = new Set(cloudflareStatic(plan).map((r) => r.path));
  // Files under a forced page rule (twins of posts, tags, projects) are the function's to answer.
  const forced = pageRules(plan).map((p) => netlifyPattern(p.from));
  const rules = new Map<string, Headers>();
  // A route's headers are read only for a rule it gets: the host files follow from those read (PlannedRoute).
  const add = (path: string, r: FileRoute) => {
    if (!rules.has(path) && !forced.some((re) => re.test(path))) rules.set(path, r.headers);
  };
  for (const r of fileRoutes(plan)) {
    if (!inCloudflare.has(r.path)) add(r.path, r);
    if (fileUrl(r.file) !== r.path) add(fileUrl(r.file), r);
  }
  const { plain, queried } = apiRoutes(plan);
  for (const r of [...plain, ...queried.flatMap((q) => q.targets)]) {
    add(fileUrl(r.file), r);
    add(r.path, r);
  }
  return [...rules].map(([path, headers]) => ({ for: path, headers }));
}

/** A TOML basic string: JSON's escapes are all valid TOML escapes. */
const str = (value: string) => JSON.stringify(value);

export function printNetlifyToml(redirects: readonly NetlifyRedirect[], headers: readonly { for: string; headers: Headers }[]): string {
  const out = [
    `# ${GENERATED}`,
    '# Netlify reads netlify.toml from the project root, not from the published directory: copy it there to deploy',
    '# (`netlify deploy --dir dist --functions functions/_netlify`). _headers and _redirects here apply as they are. See docs/hosts.md.',
    '',
  ];
  for (const r of redirects) {
    out.push('[[redirects]]', `  from = ${str(r.from)}`, `  to = ${str(r.to)}`, '  status = 200', `  force = ${r.force}`);
    if (r.query?.length) out.push(`  query = { ${r.query.map(([k, v]) => `${str(k)} = ${str(v)}`).join(', ')} }`);
    out.push('');
  }
  for (const h of headers) {
    out.push('[[headers]]', `  for = ${str(h.for)}`, '  [headers.values]');
    for (const [name, value] of Object.entries(h.headers)) out.push(`    ${str(name)} = ${str(value)}`);
    out.push('');
  }
  return out.join('\n');
}

export function netlify(plan: HostPlan): FileBytes[] {
  return [{ path: 'netlify.toml', body: printNetlifyToml(netlifyRedirects(plan), netlifyHeaders(plan)) }];
}
