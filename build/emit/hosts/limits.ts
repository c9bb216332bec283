// Each host's documented limits, checked on the files the printers produced,
// so that `folio build` fails with a clear message where a deploy would fail
// later, or worse, silently drop rules (D39).
import type { BuiltManifest } from '../manifest.js';
import type { FileBytes } from '../atomic.js';

/**
 * Cloudflare Pages: the numbers wrangler 4.40 enforces when it parses
 * _headers and _redirects (workers-shared constants) and validates
 * _routes.json and the upload (pages/constants).
 */
export const CLOUDFLARE = {
  headerRules: 100,
  lineLength: 2000,
  staticRedirects: 2000,
  dynamicRedirects: 100,
  routesRules: 100,
  routesRuleLength: 100,
  files: 20_000,
} as const;

/**
 * Vercel: the vercel.json schema (@vercel/routing-utils) rejects a deployment
 * past these. folio writes `routes`, which rewrites and headers compile to, and
 * holds them to the 2048 those lists allow.
 */
export const VERCEL = {
  routes: 2048,
  sourceLength: 4096,
  conditions: 16,
  headersPerRoute: 100,
  headerValueLength: 32768,
} as const;

/**
 * Netlify documents no hard rule count, but advises against 10,000 redirects
 * and fails deploys whose serialised rules are too large; folio stops there.
 */
export const NETLIFY = {
  redirects: 10_000,
} as const;

/** At most this many problems are listed; one cause (a long URL, too many tags) repeats on every rule. */
const LISTED = 8;

export class HostLimitError extends Error {
  constructor(readonly problems: string[]) {
    const unique = [...new Set(problems)];
    const listed = unique.slice(0, LISTED).map((p) => `  - ${p}`);
    if (unique.length > LISTED) listed.push(`  … and ${unique.length - LISTED} more like these.`);
    super(
      `The build output would not deploy:\n${listed.join('\n')}\n` +
        'The previous output was left as it was. See docs/hosts.md#host-limits for what each limit means.',
    );
    this.name = 'HostLimitError';
  }
}

const text = (file: FileBytes | undefined) =>
  file === undefined ? '' : typeof file.body === 'string' ? file.body : new TextDecoder().decode(file.body);

function lines(body: string): { line: string; number: number }[] {
  return body
    .split('\n')
    .map((line, i) => ({ line: line.trim(), number: i + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'));
}

/** dist/_headers: rules are the lines that start a path; every line has a length cap. */
export function checkCloudflareHeaders(body: string, file = '_headers'): string[] {
  const problems: string[] = [];
  const all = lines(body);
  const rules = all.filter(({ line }) => line.startsWith('/') || /^https?:\/\//.test(line)).length;
  if (rules > CLOUDFLARE.headerRules) {
    problems.push(
      `${file} has ${rules} rules; Cloudflare Pages reads only the first ${CLOUDFLARE.headerRules}. Serve fewer paths statically (they fall back to the function) or merge rules with splats.`,
    );
  }
  for (const { line, number } of all) {
    if (line.length > CLOUDFLARE.lineLength)
      problems.push(
        `${file}:${number} is ${line.length} characters long; Cloudflare Pages ignores lines over ${CLOUDFLARE.lineLength}. Shorten that header value.`,
      );
  }
  return problems;
}

/** dist/_redirects: static rules (no splat or placeholder) and dynamic ones have separate caps. */
export function checkCloudflareRedirects(body: string, file = '_redirects'): string[] {
  const problems: string[] = [];
  let staticRules = 0;
  let dynamicRules = 0;
  for (const { line, number } of lines(body)) {
    if (line.length > CLOUDFLARE.lineLength)
      problems.push(`${file}:${number} is ${line.length} characters long; Cloudflare Pages ignores lines over ${CLOUDFLARE.lineLength}.`);
    const from = line.split(/\s+/)[0]!;
    if (/\*|:[A-Za-z]/.test(from)) dynamicRules++;
    else staticRules++;
  }
  if (staticRules > CLOUDFLARE.staticRedirects)
    problems.push(`${file} has ${staticRules} static rules; Cloudflare Pages allows ${CLOUDFLARE.staticRedirects}.`);
  if (dynamicRules > CLOUDFLARE.dynamicRedirects)
    problems.push(
      `${file} has ${dynamicRules} dynamic rules (with * or :placeholder); Cloudflare Pages allows ${CLOUDFLARE.dynamicRedirects}.`,
    );
  return problems;
}

/** dist/_routes.json, validated as `wrangler pages deploy` does. */
export function checkCloudflareRoutes(body: string, file = '_routes.json'): string[] {
  let spec: { version?: unknown; include?: unknown; exclude?: unknown };
  try {
    spec = JSON.parse(body) as typeof spec;
  } catch {
    return [`${file} is not JSON.`];
  }
  const include = Array.isArray(spec.include) ? (spec.include as string[]) : [];
  const exclude = Array.isArray(spec.exclude) ? (spec.exclude as string[]) : [];
  const problems: string[] = [];
  if (spec.version !== 1) problems.push(`${file} must have "version": 1.`);
  if (include.length === 0) problems.push(`${file} needs at least one include rule.`);
  if (include.length + exclude.length > CLOUDFLARE.routesRules) {
    problems.push(
      `${file} has ${include.length + exclude.length} include and exclude rules; Cloudflare Pages allows ${CLOUDFLARE.routesRules} combined. Exclude fewer paths (they are then answered by the function).`,
    );
  }
  for (const rule of [...include, ...exclude]) {
    if (typeof rule !== 'string' || !rule.startsWith('/')) problems.push(`${file}: the rule ${JSON.stringify(rule)} must start with "/".`);
    else if (rule.length > CLOUDFLARE.routesRuleLength)
      problems.push(
        `${file}: the rule "${rule.slice(0, 40)}…" is ${rule.length} characters long; Cloudflare Pages allows ${CLOUDFLARE.routesRuleLength}.`,
      );
  }
  for (const list of [include, exclude]) {
    for (const splat of list.filter((r) => typeof r === 'string' && r.endsWith('/*'))) {
      const prefix = splat.slice(0, -1);
      const other = list.find((r) => r !== splat && typeof r === 'string' && r.startsWith(prefix));
      if (other) problems.push(`${file}: "${splat}" overlaps "${other}"; Cloudflare Pages rejects overlapping rules.`);
    }
  }
  return problems;
}

/** The number of files a deployment of dist/ uploads, as far as the manifest knows them. */
export function checkCloudflareFiles(manifest: BuiltManifest, extra: number): string[] {
  const files = new Set<string>();
  for (const [file] of manifest.routes.values()) files.add(file);
  for (const fallback of Object.values(manifest.fallbacks)) files.add(fallback.file);
  const count = files.size + extra;
  return count > CLOUDFLARE.files
    ? [
        `dist/ holds about ${count} files; a Cloudflare Pages deployment takes at most ${CLOUDFLARE.files}. Fewer tags or larger pages reduce the number of precomputed files.`,
      ]
    : [];
}

interface VercelRoute {
  src?: string;
  dest?: string;
  has?: unknown[];
  missing?: unknown[];
  headers?: Record<string, string>;
}

/** vercel.json against the limits of its schema. */
export function checkVercel(body: string, file = 'vercel.json'): string[] {
  const config = JSON.parse(body) as { routes?: VercelRoute[] };
  const routes = config.routes ?? [];
  const problems: string[] = [];
  if (routes.length > VERCEL.routes)
    problems.push(
      `${file} has ${routes.length} routes; Vercel allows ${VERCEL.routes}. folio writes about 40 whatever the number of posts, and two or three for each alias (its 301s): fewer aliases reduce them.`,
    );
  for (const route of routes) {
    const name = (route.src ?? '').slice(0, 60);
    for (const [what, value] of [
      ['src', route.src],
      ['dest', route.dest],
    ] as const) {
      if (value && value.length > VERCEL.sourceLength)
        problems.push(`${file}: a route ${what} of ${value.length} characters (${name}…); Vercel allows ${VERCEL.sourceLength}.`);
    }
    for (const list of [route.has, route.missing]) {
      if (list && list.length > VERCEL.conditions)
        problems.push(`${file}: the route ${name} has ${list.length} conditions; Vercel allows ${VERCEL.conditions}.`);
    }
    const headers = Object.entries(route.headers ?? {});
    if (headers.length > VERCEL.headersPerRoute)
      problems.push(`${file}: the route ${name} sets ${headers.length} headers; Vercel allows ${VERCEL.headersPerRoute}.`);
    for (const [key, value] of headers) {
      if (value.length > VERCEL.headerValueLength)
        problems.push(
          `${file}: the ${key} header of ${name} is ${value.length} characters long; Vercel allows ${VERCEL.headerValueLength}.`,
        );
    }
  }
  return problems;
}

/** Netlify reads the rules of both files: one [[redirects]] table of netlify.toml per rule, and one line of _redirects that is not blank or a comment. */
export function checkNetlify(toml: string, redirects = ''): string[] {
  const tables = toml.split('\n').filter((l) => l.trim() === '[[redirects]]').length;
  const lines = redirects.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#')).length;
  return tables + lines > NETLIFY.redirects
    ? [
        `netlify.toml and _redirects have ${tables + lines} redirect rules (${tables} and ${lines}); Netlify advises against ${NETLIFY.redirects} and fails deploys whose rules are too large. Each alias adds two or three (its 301s): fewer aliases reduce them.`,
      ]
    : [];
}

/** The hosts folio writes files for, as `folio build --host` names them. */
export const HOSTS = ['cloudflare', 'netlify', 'vercel'] as const;
export type Host = (typeof HOSTS)[number];

/** Every host's problems with the files, by host. */
export function hostProblems(files: FileBytes[], manifest: BuiltManifest, others = 0): Record<Host, string[]> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  return {
    cloudflare: [
      ...checkCloudflareHeaders(text(byPath.get('_headers'))),
      ...checkCloudflareRedirects(text(byPath.get('_redirects'))),
      ...(byPath.has('_routes.json') ? checkCloudflareRoutes(text(byPath.get('_routes.json'))) : []),
      ...checkCloudflareFiles(manifest, files.length + 2 + others),
    ],
    netlify: checkNetlify(text(byPath.get('netlify.toml')), text(byPath.get('_redirects'))),
    vercel: byPath.has('vercel.json') ? checkVercel(text(byPath.get('vercel.json'))) : [],
  };
}

/**
 * Checks every host's files. The problems of the hosts in `deploy` throw one
 * error that lists them all; the others' are handed to `warn`, one line
 * each: a limit such as Cloudflare's file count is a fact of a plan and of
 * the site's size, which matters only to an author who deploys there.
 */
/** `others`: files the output holds besides the manifest's, the host files, the model and the manifest (e.g. the functions' shards). */
export function checkHostLimits(
  files: FileBytes[],
  manifest: BuiltManifest,
  deploy: readonly Host[] = HOSTS,
  warn: (message: string) => void = () => {},
  others = 0,
): void {
  const problems = hostProblems(files, manifest, others);
  const warnings = [...new Set(HOSTS.filter((h) => !deploy.includes(h)).flatMap((h) => problems[h]))];
  for (const w of warnings.slice(0, LISTED)) warn(w);
  if (warnings.length > LISTED) warn(`… and ${warnings.length - LISTED} more like these.`);
  if (warnings.length) {
    const hosts = HOSTS.filter((h) => !deploy.includes(h) && problems[h].length);
    warn(
      `${hosts.join(', ')} would refuse this output; the build goes on because --host does not name ${hosts.length === 1 ? 'it' : 'them'} (docs/hosts.md#host-limits).`,
    );
  }
  const failing = deploy.flatMap((h) => problems[h]);
  if (failing.length) throw new HostLimitError(failing);
}

/** `--host` values: names, repeated or comma-separated; an unknown name is an error that lists the known ones. */
export function parseHosts(values: readonly string[]): Host[] {
  const names = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !(HOSTS as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(
      `"${unknown.join('", "')}" is not a host folio writes files for. Use --host ${HOSTS.join(', --host ')} (or a comma-separated list).`,
    );
  return HOSTS.filter((h) => names.includes(h));
}
