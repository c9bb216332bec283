// What the host tests share (hosts-*.test.ts): the sample built once per
// file with its manifest and host plan, the readers of the files the
// printers write, and Netlify's and Vercel's routing replayed as each host
// documents it, with the check that whatever a host serves from a file is
// byte for byte the core's answer to the same request.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, expect } from 'vitest';
import { MANIFEST_PATH, type Manifest } from '../../build/core/files.js';
import { request } from '../../build/core/http.js';
import type { Site } from '../../build/core/model.js';
import { respond } from '../../build/core/respond.js';
import { memoryRuntime } from '../../build/emit/memory-runtime.js';
import { cloudflare } from '../../build/emit/hosts/cloudflare.js';
import { netlify, type NetlifyRedirect } from '../../build/emit/hosts/netlify.js';
import { fileUrl, planHosts, type HostPlan } from '../../build/emit/hosts/plan.js';
import { vercel, type VercelRoute } from '../../build/emit/hosts/vercel.js';
import { buildInto, builtManifest } from './site.js';

export interface HostSample extends Built {
  /** The sample's host plan, as the build makes it once for every printer. */
  plan: HostPlan;
}

/** The sample, built before the file's tests and removed after them; its fields are set once beforeAll has run. */
export function hostSample(): HostSample {
  const sample = {} as HostSample;
  beforeAll(async () => {
    const built = await buildInto('content');
    sample.dist = built.out;
    sample.site = built.site;
    sample.manifest = JSON.parse(await readFile(join(built.out, MANIFEST_PATH), 'utf8')) as Manifest;
    sample.plan = planHosts(sample.site, builtManifest(sample.manifest));
  });
  afterAll(async () => {
    if (sample.dist) await rm(join(sample.dist, '..'), { recursive: true, force: true });
  });
  return sample;
}

export const text = (files: { path: string; body: string | Uint8Array }[], path: string) => {
  const body = files.find((f) => f.path === path)!.body;
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
};

/** _headers as Pages reads it: a path line, then indented `name: value` lines. */
export function parseHeaders(body: string): Map<string, Record<string, string>> {
  const rules = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('/')) rules.set(line, (current = {}));
    else {
      const at = line.indexOf(':');
      current![line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
  }
  return rules;
}

/** A copy of a manifest with `n` more twins, for the budgets. */
export function withTwins(manifest: Manifest, n: number, length = 20): Manifest {
  const [, twinSet, own] = manifest.routes['/blog.md']!;
  const routes = { ...manifest.routes };
  for (let i = 0; i < n; i++) {
    const slug = `extra-${String(i).padStart(4, '0')}`.padEnd(length, 'x');
    routes[`/blog/${slug}.md`] = own ? [`blog/${slug}.md`, twinSet, own] : [`blog/${slug}.md`, twinSet];
  }
  return { ...manifest, routes };
}

/** Netlify's `from` matching: a `:placeholder` takes one whole segment, `*` the rest; the captures by name. */
function netlifyMatch(from: string, pathname: string): Record<string, string> | null {
  const trim = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);
  const want = trim(from).split('/');
  const got = trim(pathname).split('/');
  const captures: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '*') return { ...captures, splat: got.slice(i).join('/') };
    if (got[i] === undefined) return null;
    if (want[i]!.startsWith(':') && got[i] !== '') captures[want[i]!.slice(1)] = got[i]!;
    else if (want[i] !== got[i]) return null;
  }
  return got.length === want.length ? captures : null;
}

/** Whether a URL path is a file a manifest route names (the files the rules are about). */
const routedFile = (m: Manifest) => (path: string) => Object.values(m.routes).some(([file]) => fileUrl(file) === path);

/** Replays Netlify's matching: first rule that matches wins; unforced rules yield to an existing file. */
export function netlifyRoute(rules: NetlifyRedirect[], target: string, m: Manifest, fileAt = routedFile(m)): string {
  const url = new URL(target, 'https://x.invalid');
  for (const r of rules) {
    if (!r.force && fileAt(url.pathname)) continue;
    const captures = netlifyMatch(r.from, url.pathname);
    if (!captures) continue;
    if (!(r.query ?? []).every(([k, v]) => url.searchParams.has(k) && (v.startsWith(':') || url.searchParams.get(k) === v))) continue;
    return r.to.replace(/:([a-z]+)/g, (_, name: string) => captures[name] ?? `:${name}`);
  }
  return url.pathname;
}

/** Replays Vercel's routes for a GET: first matching route with a dest wins; `filesystem` serves existing files. */
export function vercelRoute(
  routes: VercelRoute[],
  target: string,
  m: Manifest,
  headers: Record<string, string> = {},
  fileAt = routedFile(m),
): string {
  const url = new URL(target, 'https://x.invalid');
  const present = (c: { type: string; key: string }) =>
    c.type === 'header' ? c.key.toLowerCase() in headers : url.searchParams.has(c.key);
  const value = (c: { type: string; key: string }) => (c.type === 'header' ? headers[c.key.toLowerCase()]! : url.searchParams.get(c.key)!);
  for (const r of routes) {
    if (r.handle === 'filesystem') {
      if (fileAt(url.pathname)) return url.pathname;
      continue;
    }
    if (r.handle || r.continue || !r.dest) continue;
    const match = new RegExp(r.src!).exec(url.pathname);
    if (!match || (r.methods && !r.methods.includes('GET'))) continue;
    if (!(r.has ?? []).every((c) => present(c) && (!c.value || new RegExp(c.value).test(value(c))))) continue;
    if (!(r.missing ?? []).every((c) => !present(c))) continue;
    return r.dest.replace('$1', match[1] ?? '');
  }
  return url.pathname;
}

/** The headers Vercel adds to a file it serves at `path`: `continue` routes before the filesystem, and those of the `hit` phase. */
export function vercelFileHeaders(routes: VercelRoute[], path: string, file: string): Record<string, string> | undefined {
  return routes.find((r) => r.headers && r.src && new RegExp(r.src).test(path) && (r.continue || r.dest === fileUrl(file)))?.headers;
}

/** Requests whose answer a query-matching host might get wrong: filters, paging, casing, junk. */
function queryCorpus(): string[] {
  const out: string[] = [];
  for (const tag of [null, 'ci', 'CI', 'email', 'no-such-tag', '']) {
    for (const limit of [null, '20', '5', 'abc']) {
      for (const offset of [null, '0', '20', '3']) {
        const q = new URLSearchParams();
        if (tag !== null) q.set('tag', tag);
        if (limit !== null) q.set('limit', limit);
        if (offset !== null) q.set('offset', offset);
        out.push(`/api/v1/posts${q.size ? `?${q}` : ''}`, `/api/v1/posts?${q}${q.size ? '&' : ''}utm_source=x`);
      }
    }
  }
  for (const status of [null, 'live', 'sunset', 'delivered', 'LIVE', 'paused'])
    out.push(`/api/v1/projects${status === null ? '' : `?status=${status}`}`);
  out.push('/api/v1', '/api/v1/profile?x=1', '/api/v1/posts/short-lived-ssh-certificates', '/api/v1/posts/no-such-post', '/api/v1/nope');
  return out;
}

export interface Built {
  site: Site;
  manifest: Manifest;
  dist: string;
}

/**
 * Whatever a host serves from a file must be byte for byte the core's 200
 * answer to the same request; everything else must reach the function.
 */
export async function expectFaithful(
  route: (target: string) => string,
  isFunction: (dest: string) => boolean,
  built: Built,
  targets = queryCorpus(),
) {
  const rt = memoryRuntime(built.site);
  let files = 0;
  const wrong: string[] = [];
  for (const target of targets) {
    const dest = route(target);
    if (isFunction(dest)) continue;
    files++;
    const reply = await respond(request('GET', target), rt);
    const file = Object.values(built.manifest.routes).find(([f]) => fileUrl(f) === dest.split('?')[0])?.[0];
    if (reply.status !== 200 || !file) wrong.push(`${target} → ${dest}, but the core answers ${reply.status}`);
    else if (!Buffer.from(reply.body!).equals(await readFile(join(built.dist, file))))
      wrong.push(`${target} → ${dest}, which differs from the core's answer`);
  }
  expect(wrong).toEqual([]);
  return files;
}

/** Every rule each host's files hold: what its limits count. */
export function ruleCounts(b: Built) {
  const plan = planHosts(b.site, builtManifest(b.manifest));
  const files = [...cloudflare(plan), ...netlify(plan), ...vercel(plan)];
  const toml = parseToml(text(files, 'netlify.toml')) as { redirects: unknown[]; headers: unknown[] };
  const routes = JSON.parse(text(files, '_routes.json')) as { include: string[]; exclude: string[] };
  return {
    netlifyRedirects: toml.redirects.length,
    netlifyHeaders: toml.headers.length,
    vercelRoutes: (JSON.parse(text(files, 'vercel.json')) as { routes: unknown[] }).routes.length,
    cloudflareRoutes: routes.include.length + routes.exclude.length,
    cloudflareHeaders: parseHeaders(text(files, '_headers')).size,
  };
}

/** Every target of a built site, with the requests a pattern rule might get wrong beside each: unknown items, other tags, paging. */
export function siteCorpus(m: Manifest): string[] {
  const out = new Set<string>();
  for (const target of Object.keys(m.routes)) {
    out.add(target);
    const [path, query] = target.split('?');
    // A trailing slash on the API and pages; the core refuses it on documents (/mcp/server-card/), which hosts normalise away (docs/hosts.md).
    if (path!.startsWith('/api/') || path!.startsWith('/blog/')) out.add(`${path}/`);
    out.add(`${path}?utm_source=x`);
    if (query) out.add(`${path}?${query.toUpperCase()}`);
  }
  for (const extra of [
    '/blog/no-such-post',
    '/blog/no-such-post.md',
    '/blog/tags/no-such-tag',
    '/blog/tags/no-such-tag.md',
    '/projects/none',
    '/projects/none.md',
    '/api/v1/posts/no-such-post',
    '/api/v1/posts?tag=no-such-tag',
    '/api/v1/posts?offset=7',
    '/api/v1/posts?offset=999999',
    '/api/v1/posts?limit=3&offset=20',
  ])
    out.add(extra);
  return [...out];
}
