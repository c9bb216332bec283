// The host printers (D39): Cloudflare's _headers, _redirects and _routes.json,
// Netlify's netlify.toml and Vercel's vercel.json, printed from the sample's
// manifest, and the limit checks that stop a build before a deploy would fail.
// Netlify and Vercel cannot run here, so their rules are replayed with each
// host's documented matching and every answer they route to a file is
// compared with what the core answers for the same request.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import serveHandler from 'serve-handler';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH, routeHeaders, type Manifest } from '../build/core/files.js';
import { request } from '../build/core/http.js';
import type { Site } from '../build/core/model.js';
import { respond } from '../build/core/respond.js';
import { build } from '../build/emit/build.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { cloudflare, cloudflareStatic } from '../build/emit/hosts/cloudflare.js';
import {
  checkCloudflareHeaders,
  checkCloudflareRedirects,
  checkCloudflareRoutes,
  checkHostLimits,
  checkNetlify,
  checkVercel,
  CLOUDFLARE,
  HostLimitError,
  parseHosts,
} from '../build/emit/hosts/limits.js';
import {
  NETLIFY_FILES,
  NETLIFY_FUNCTION,
  netlify,
  netlifyHeaders,
  netlifyRedirects,
  type NetlifyRedirect,
} from '../build/emit/hosts/netlify.js';
import { fileRoutes, fileUrl, planHosts, type HostPlan } from '../build/emit/hosts/plan.js';
import { INTERNAL_READ, vercel, VERCEL_FUNCTION, vercelRoutes, type VercelRoute } from '../build/emit/hosts/vercel.js';
import { startServer } from '../build/serve.js';
import { originHandler } from '../functions/_shared/origin.js';
import { writeCorpus } from './helpers/corpus.js';
import { buildInto, NOW, tempDir, treeHash, builtManifest } from './helpers/site.js';

let dist: string;
let site: Site;
let manifest: Manifest;
/** The sample's host plan, as the build makes it once for every printer. */
let plan: HostPlan;

beforeAll(async () => {
  const built = await buildInto('content');
  dist = built.out;
  site = built.site;
  manifest = JSON.parse(await readFile(join(dist, MANIFEST_PATH), 'utf8')) as Manifest;
  plan = planHosts(site, builtManifest(manifest));
});
afterAll(async () => {
  if (dist) await rm(join(dist, '..'), { recursive: true, force: true });
});

const text = (files: { path: string; body: string | Uint8Array }[], path: string) => {
  const body = files.find((f) => f.path === path)!.body;
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
};

/** _headers as Pages reads it: a path line, then indented `name: value` lines. */
function parseHeaders(body: string): Map<string, Record<string, string>> {
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

/** A copy of the sample's manifest with `n` more twins, for the budgets. */
function withTwins(n: number, length = 20): Manifest {
  const [, twinSet, own] = manifest.routes['/blog.md']!;
  const routes = { ...manifest.routes };
  for (let i = 0; i < n; i++) {
    const slug = `extra-${String(i).padStart(4, '0')}`.padEnd(length, 'x');
    routes[`/blog/${slug}.md`] = own ? [`blog/${slug}.md`, twinSet, own] : [`blog/${slug}.md`, twinSet];
  }
  return { ...manifest, routes };
}

describe('Cloudflare Pages printer', () => {
  it('sends everything to the functions except files that need no decision (D38, D39)', () => {
    const routes = JSON.parse(text(cloudflare(plan), '_routes.json'));
    expect(checkCloudflareRoutes(JSON.stringify(routes))).toEqual([]);
    expect(routes.include).toEqual(['/*']);
    for (const path of routes.exclude) {
      expect(manifest.routes[path], path).toBeDefined();
      expect(path.startsWith('/api/'), path).toBe(false);
      expect(routeHeaders(manifest.header_sets, manifest.routes[path]!)['content-type'], path).not.toMatch(/html/);
    }
    // The sample fits the budget: every document and twin is a plain file.
    expect(routes.exclude.length).toBe(fileRoutes(plan).length);
    expect(routes.exclude).toEqual(
      expect.arrayContaining(['/llms.txt', '/blog.md', '/index.md', '/.well-known/api-catalog', '/assets/site.css']),
    );
    for (const page of ['/', '/blog', '/about', '/api/v1', '/api/v1/posts', '/mcp']) expect(routes.exclude).not.toContain(page);
  });

  it('gives every file Pages serves the exact header set of its manifest route (D39)', () => {
    const body = text(cloudflare(plan), '_headers');
    expect(checkCloudflareHeaders(body)).toEqual([]);
    const rules = parseHeaders(body);
    const excluded = JSON.parse(text(cloudflare(plan), '_routes.json')).exclude as string[];
    expect([...rules.keys()].sort()).toEqual([...excluded].sort());
    for (const [path, headers] of rules) expect(headers, path).toEqual(routeHeaders(manifest.header_sets, manifest.routes[path]!));
  });

  it('rewrites extension-less documents to the files that hold them, and redirects moved addresses (D48), nothing else', () => {
    const body = text(cloudflare(plan), '_redirects');
    expect(checkCloudflareRedirects(body)).toEqual([]);
    const lines = body.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines).toContain('/.well-known/api-catalog /.well-known/api-catalog.json 200');
    const moved = lines.filter((l) => l.endsWith(' 301'));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved).toEqual(Object.entries(site.redirects).map(([from, to]) => `${from} ${to} 301`));
    for (const line of lines.filter((l) => !l.endsWith(' 301'))) {
      const [from, to, status] = line.split(' ');
      expect(status).toBe('200');
      expect(to, from).toBe(fileUrl(manifest.routes[from!]![0]));
      expect(to).not.toBe(from);
    }
  });

  it('stays within 100 rules however many twins there are; the rest is left to the function', () => {
    const big = withTwins(300);
    const files = cloudflare(planHosts(site, builtManifest(big)));
    const routes = JSON.parse(text(files, '_routes.json'));
    expect(routes.include.length + routes.exclude.length).toBe(CLOUDFLARE.routesRules);
    expect(parseHeaders(text(files, '_headers')).size).toBeLessThanOrEqual(CLOUDFLARE.headerRules);
    expect(() => checkHostLimits(files, builtManifest(big))).not.toThrow();
    // Site-wide documents come before twins.
    expect(routes.exclude).toEqual(expect.arrayContaining(['/llms.txt', '/robots.txt', '/openapi.json']));
    const last = Object.keys(big.routes)
      .filter((p) => p.startsWith('/blog/extra-'))
      .at(-1)!;
    expect(routes.exclude).not.toContain(last);
  });

  it('never excludes a path longer than a _routes.json rule may be', () => {
    const long = withTwins(1, 120);
    const path = Object.keys(long.routes).find((p) => p.startsWith('/blog/extra-'))!;
    expect(path.length).toBeGreaterThan(CLOUDFLARE.routesRuleLength);
    expect(cloudflareStatic(planHosts(site, builtManifest(long))).map((r) => r.path)).not.toContain(path);
  });
});

describe('host limits (D39)', () => {
  const routes = (n: number) => JSON.stringify({ version: 1, include: ['/*'], exclude: Array.from({ length: n }, (_, i) => `/p${i}.md`) });

  it('checks _routes.json as wrangler pages deploy does', () => {
    expect(checkCloudflareRoutes(routes(99))).toEqual([]);
    expect(checkCloudflareRoutes(routes(100)).join()).toMatch(/101 include and exclude rules; Cloudflare Pages allows 100/);
    expect(checkCloudflareRoutes(JSON.stringify({ version: 1, include: [], exclude: [] })).join()).toMatch(/at least one include/);
    expect(checkCloudflareRoutes(JSON.stringify({ version: 1, include: ['/*'], exclude: [`/${'a'.repeat(100)}`] })).join()).toMatch(
      /101 characters long/,
    );
    expect(checkCloudflareRoutes(JSON.stringify({ version: 1, include: ['/*'], exclude: ['/blog/*', '/blog/a'] })).join()).toMatch(
      /overlaps/,
    );
  });

  it('checks _headers and _redirects against their rule and line caps', () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => `/p${i}\n  x-a: b`).join('\n');
    expect(checkCloudflareHeaders(rules(100))).toEqual([]);
    expect(checkCloudflareHeaders(rules(101)).join()).toMatch(/101 rules; Cloudflare Pages reads only the first 100/);
    expect(checkCloudflareHeaders(`/a\n  x-a: ${'b'.repeat(2000)}`).join()).toMatch(/_headers:2 is 2005 characters/);
    const dynamic = Array.from({ length: 101 }, (_, i) => `/d${i}/* /x/:splat 200`).join('\n');
    expect(checkCloudflareRedirects(dynamic).join()).toMatch(/101 dynamic rules/);
  });

  it('checks vercel.json and netlify.toml', () => {
    expect(checkVercel(JSON.stringify({ routes: Array.from({ length: 2049 }, () => ({ src: '^/a$' })) })).join()).toMatch(
      /2049 routes; Vercel allows 2048/,
    );
    expect(
      checkVercel(
        JSON.stringify({ routes: [{ src: '^/a$', has: Array.from({ length: 17 }, () => ({ type: 'query', key: 'a' })) }] }),
      ).join(),
    ).toMatch(/17 conditions/);
    expect(checkNetlify('[[redirects]]\n'.repeat(10_001)).join()).toMatch(/10001 redirect rules/);
  });

  it('throws one error that names every problem and the way out', () => {
    const files = [
      { path: '_routes.json', body: routes(120) },
      { path: '_headers', body: '' },
      { path: '_redirects', body: '' },
    ];
    const error = (() => {
      try {
        checkHostLimits(files, builtManifest(manifest));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(HostLimitError);
    expect((error as Error).message).toMatch(/^The build output would not deploy:\n {2}- _routes\.json has 121 include and exclude rules/);
    expect((error as Error).message).toMatch(/previous output was left as it was/);
  });

  it('only fails for the hosts deployed to; the others are warned about (D39)', () => {
    const files = [
      { path: '_routes.json', body: routes(120) },
      { path: 'netlify.toml', body: '[[redirects]]\n'.repeat(10_001) },
    ];
    const warnings: string[] = [];
    expect(() => checkHostLimits(files, builtManifest(manifest), ['vercel'], (w) => warnings.push(w))).not.toThrow();
    expect(warnings[0]).toMatch(/^_routes\.json has 121 include and exclude rules/);
    expect(warnings).toContain(
      'netlify.toml has 10001 redirect rules; Netlify advises against 10000 and fails deploys whose rules are too large.',
    );
    expect(warnings.at(-1)).toMatch(/^cloudflare, netlify would refuse this output; the build goes on because --host does not name them/);
    warnings.length = 0;
    expect(() => checkHostLimits(files, builtManifest(manifest), ['netlify'], (w) => warnings.push(w))).toThrow(
      /^The build output would not deploy:\n {2}- netlify\.toml has 10001 redirect rules[^]*previous output/,
    );
    expect(warnings.join('\n')).toMatch(/_routes\.json has 121/);
    expect(warnings.join('\n')).not.toMatch(/netlify\.toml/);
  });

  it('reads --host values repeated or comma-separated, and names the hosts it knows', () => {
    expect(parseHosts(['vercel', 'Netlify,cloudflare'])).toEqual(['cloudflare', 'netlify', 'vercel']);
    expect(parseHosts(['netlify'])).toEqual(['netlify']);
    expect(() => parseHosts(['fly'])).toThrow(
      /"fly" is not a host folio writes files for\. Use --host cloudflare, --host netlify, --host vercel/,
    );
  });
});

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
function netlifyRoute(rules: NetlifyRedirect[], target: string, m: Manifest = manifest, fileAt = routedFile(m)): string {
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
function vercelRoute(
  routes: VercelRoute[],
  target: string,
  m: Manifest = manifest,
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
function vercelFileHeaders(routes: VercelRoute[], path: string, file: string): Record<string, string> | undefined {
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

interface Built {
  site: Site;
  manifest: Manifest;
  dist: string;
}

/**
 * Whatever a host serves from a file must be byte for byte the core's 200
 * answer to the same request; everything else must reach the function.
 */
async function expectFaithful(
  route: (target: string) => string,
  isFunction: (dest: string) => boolean,
  built: Built = { site, manifest, dist },
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

describe('Netlify printer', () => {
  it('writes netlify.toml that a TOML parser reads back as the same rules', () => {
    const toml = parseToml(text(netlify(plan), 'netlify.toml')) as {
      redirects: Record<string, unknown>[];
      headers: { for: string; values: Record<string, string> }[];
    };
    const rules = netlifyRedirects(plan);
    expect(toml.redirects).toHaveLength(rules.length);
    toml.redirects.forEach((r, i) => {
      expect(r).toMatchObject({ from: rules[i]!.from, to: rules[i]!.to, status: 200, force: rules[i]!.force });
      expect(r.query ?? {}).toEqual(Object.fromEntries(rules[i]!.query ?? []));
    });
    expect(toml.headers.map((h) => ({ for: h.for, headers: h.values }))).toEqual(netlifyHeaders(plan));
    expect(checkNetlify(text(netlify(plan), 'netlify.toml'))).toEqual([]);
  });

  it('routes query strings to precomputed files only when the file is the exact answer (D8-D11, D38)', async () => {
    const rules = netlifyRedirects(plan);
    const files = await expectFaithful(
      (t) => netlifyRoute(rules, t),
      (dest) => dest.startsWith(`${NETLIFY_FUNCTION}/`),
    );
    expect(files).toBeGreaterThanOrEqual(8);
    expect(netlifyRoute(rules, '/api/v1/projects?status=live')).toBe('/api/v1/projects@status=live.json');
    expect(netlifyRoute(rules, '/api/v1/posts?utm_source=x')).toBe('/api/v1/posts.json');
    // Tags grow with the content: their precomputed answers are the function's to read.
    expect(netlifyRoute(rules, '/api/v1/posts?tag=ci')).toBe(`${NETLIFY_FUNCTION}/api/v1/posts`);
    expect(netlifyRoute(rules, '/api/v1/posts?tag=ci&limit=5')).toBe(`${NETLIFY_FUNCTION}/api/v1/posts`);
  });

  it('sends pages to the function for negotiation, and unknown paths to the core (D21, D23)', () => {
    const rules = netlifyRedirects(plan);
    for (const page of plan.negotiated) expect(netlifyRoute(rules, page), page).toBe(`${NETLIFY_FUNCTION}${page}`);
    expect(netlifyRoute(rules, '/no-such-page')).toBe(`${NETLIFY_FUNCTION}/no-such-page`);
    expect(netlifyRoute(rules, '/llms.txt')).toBe('/llms.txt');
    expect(rules.at(-1)).toEqual({ from: '/*', to: `${NETLIFY_FUNCTION}/:splat`, force: false });
  });

  it('gives every file it serves its manifest headers, under its address and its file path', () => {
    const byPath = new Map(netlifyHeaders(plan).map((h) => [h.for, h.headers]));
    const shared = parseHeaders(text(cloudflare(plan), '_headers'));
    const rules = netlifyRedirects(plan);
    for (const [target, route] of Object.entries(manifest.routes)) {
      const file = route[0];
      if (netlifyRoute(rules, target).startsWith(`${NETLIFY_FUNCTION}/`)) continue;
      const path = target.split('?')[0]!;
      const expected = routeHeaders(manifest.header_sets, route);
      expect(byPath.get(path) ?? shared.get(path), target).toEqual(expected);
      if (fileUrl(file) !== path) expect(byPath.get(fileUrl(file)), file).toEqual(expected);
    }
  });
});

describe('Vercel printer', () => {
  it('writes routes that compile, within the schema limits', () => {
    const body = text(vercel(plan), 'vercel.json');
    expect(checkVercel(body)).toEqual([]);
    const config = JSON.parse(body);
    expect(config.outputDirectory).toBe('dist');
    for (const r of config.routes as VercelRoute[]) if (r.src) expect(() => new RegExp(r.src!)).not.toThrow();
    expect(config.routes.filter((r: VercelRoute) => r.handle === 'filesystem')).toHaveLength(1);
  });

  it('routes exact query strings to precomputed files with has and missing (D8-D11, D38)', async () => {
    const routes = vercelRoutes(plan);
    const files = await expectFaithful(
      (t) => vercelRoute(routes, t),
      (dest) => dest.startsWith(VERCEL_FUNCTION),
    );
    expect(files).toBeGreaterThanOrEqual(8);
    expect(vercelRoute(routes, '/api/v1/projects?status=sunset')).toBe('/api/v1/projects@status=sunset.json');
    expect(vercelRoute(routes, '/api/v1/posts?tag=ci&offset=0')).toBe(`${VERCEL_FUNCTION}?__folio_path=/api/v1/posts`);
  });

  it('routes pages to the function before their .html files, and leaves /.well-known alone', () => {
    const routes = vercelRoutes(plan);
    for (const page of plan.negotiated) expect(vercelRoute(routes, page), page).toBe(`${VERCEL_FUNCTION}?__folio_path=${page}`);
    expect(vercelRoute(routes, '/no-such-page')).toBe(`${VERCEL_FUNCTION}?__folio_path=/no-such-page`);
    for (const r of routes) if (r.dest) expect(r.src ?? '', 'Vercel reserves /.well-known').not.toMatch(/well-known/);
  });

  it('gives every file it serves the manifest headers', () => {
    const routes = vercelRoutes(plan);
    let files = 0;
    for (const [target, route] of Object.entries(manifest.routes)) {
      const file = route[0];
      if (vercelRoute(routes, target).startsWith(VERCEL_FUNCTION) || (target.startsWith('/.well-known/') && fileUrl(file) !== target))
        continue;
      files++;
      expect(vercelFileHeaders(routes, target.split('?')[0]!, file), target).toEqual(routeHeaders(manifest.header_sets, route));
    }
    // Every one-off twin, document and fixed-value query: pages, item twins and per-item API answers are the function's.
    expect(files).toBeGreaterThan(20);
  });
});

/** Every rule each host's files hold: what its limits count. */
function ruleCounts(b: Built) {
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
function siteCorpus(m: Manifest): string[] {
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

describe('a generated site of a few hundred posts (D39)', () => {
  const sites: Built[] = [];
  beforeAll(async () => {
    for (const posts of [150, 300]) {
      const work = await tempDir('folio-hosts-grow-');
      // Tags grow with the posts too: one per ten.
      const content = await writeCorpus(join(work, 'content'), { posts, tags: posts / 10 });
      const out = join(work, 'dist');
      const result = await build({ content, out, now: NOW, warn: () => {} });
      sites.push({ site: result.site, dist: out, manifest: JSON.parse(await readFile(join(out, MANIFEST_PATH), 'utf8')) as Manifest });
    }
  }, 120_000);
  afterAll(async () => {
    for (const b of sites) await rm(join(b.dist, '..'), { recursive: true, force: true });
  });

  it('keeps every host file to the same number of rules for twice the posts', () => {
    const [small, large] = sites.map(ruleCounts);
    expect(Object.keys(sites[1]!.manifest.routes).length).toBeGreaterThan(Object.keys(sites[0]!.manifest.routes).length + 450);
    expect(large).toEqual(small);
    // And stays far below every host's cap.
    expect(small!.netlifyRedirects).toBeLessThan(40);
    expect(small!.vercelRoutes).toBeLessThan(60);
  });

  it('replays every target, and its neighbours, on Netlify and Vercel as the core answers them (D38)', async () => {
    for (const b of sites) {
      const targets = siteCorpus(b.manifest);
      const plan = planHosts(b.site, builtManifest(b.manifest));
      const rules = netlifyRedirects(plan);
      const routes = vercelRoutes(plan);
      const viaNetlify = await expectFaithful(
        (t) => netlifyRoute(rules, t, b.manifest),
        (dest) => dest.startsWith(`${NETLIFY_FUNCTION}/`),
        b,
        targets,
      );
      const viaVercel = await expectFaithful(
        (t) => vercelRoute(routes, t, b.manifest),
        (dest) => dest.startsWith(VERCEL_FUNCTION),
        b,
        targets,
      );
      // Site-wide documents and the one-off API answers are files on both. The
      // twins of items carry their own X-Markdown-Tokens, so no one header rule
      // fits them all: the function serves them from their files on both hosts.
      expect(viaNetlify).toBeGreaterThan(20);
      expect(viaVercel).toBeGreaterThan(20);
      for (const post of b.site.posts.slice(0, 5)) {
        const page = `/blog/${post.slug}`;
        expect(netlifyRoute(rules, page, b.manifest)).toBe(`${NETLIFY_FUNCTION}${page}`);
        expect(vercelRoute(routes, page, b.manifest)).toBe(`${VERCEL_FUNCTION}?__folio_path=${page}`);
        expect(vercelRoute(routes, `${page}.md`, b.manifest)).toBe(`${VERCEL_FUNCTION}?__folio_path=${page}.md`);
        expect(routeHeaders(b.manifest.header_sets, b.manifest.routes[`${page}.md`]!)['x-markdown-tokens']).toMatch(/^[1-9]\d*$/);
      }
      // A one-off twin is still a file, with its headers, token estimate included.
      expect(vercelRoute(routes, '/about.md', b.manifest)).toBe('/about.md');
      expect(vercelFileHeaders(routes, '/about.md', 'about.md')).toEqual(
        routeHeaders(b.manifest.header_sets, b.manifest.routes['/about.md']!),
      );
    }
  }, 120_000);
});

describe('a build past a host limit (D39, D40)', () => {
  // A site URL so long that the Link headers of the API and of the twins pass Vercel's 32,768 characters.
  const siteUrl = `https://ada.example/${'a'.repeat(33_000)}`;
  const folio = (out: string, ...args: string[]) =>
    spawnSync(process.execPath, ['bin/folio.js', 'build', '--out', out, '--now', '2026-11-22', '--site-url', siteUrl, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('exits 1 with the limit, the file and the fix for a host named with --host, and leaves the previous dist as it was', async () => {
    const { out } = await buildInto();
    const before = await treeHash(out);
    const run = folio(out, '--host', 'netlify,vercel');
    expect(run.status).toBe(1);
    // The first file past the limit is the about page's twin, whose Link header names its page.
    const twinLink = `<${siteUrl}/about>; rel="canonical"`;
    expect(run.stderr.split('\n').slice(0, 2)).toEqual([
      'folio: The build output would not deploy:',
      `  - vercel.json: the link header of ^(?:/about\\.md)$ is ${twinLink.length} characters long; Vercel allows 32768.`,
    ]);
    expect(run.stderr).toMatch(/Vercel allows 32768\.\n(?:.*\n)*The previous output was left as it was/);
    expect(await treeHash(out)).toEqual(before);
    await rm(join(out, '..'), { recursive: true, force: true });
  }, 60_000);

  it('warns and builds when the host past its limit is not named, or no host is', async () => {
    const out = join(await tempDir('folio-limits-'), 'dist');
    for (const args of [[], ['--host', 'cloudflare', '--host', 'netlify']]) {
      await rm(out, { recursive: true, force: true });
      const run = folio(out, ...args);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^folio: warning: vercel\.json: the link header of \S+ is 33081 characters long; Vercel allows 32768\.$/m);
      expect(run.stderr).toMatch(/^folio: warning: vercel would refuse this output; the build goes on because --host does not name it/m);
      expect(run.stderr).not.toMatch(/would not deploy/);
      expect(JSON.parse(await readFile(join(out, 'vercel.json'), 'utf8')).routes.length).toBeGreaterThan(0);
    }
    const unknown = folio(out, '--host', 'fly');
    expect(unknown.status, 'a usage error').toBe(2);
    expect(unknown.stderr).toMatch(/"fly" is not a host folio writes files for/);
    await rm(join(out, '..'), { recursive: true, force: true });
  }, 120_000);
});

describe('the Netlify and Vercel functions (D38)', () => {
  let cdns: Server[] = [];
  let netlifyOrigin: string;
  let vercelOrigin: string;
  let serve: Awaited<ReturnType<typeof startServer>>;

  /**
   * The CDN a function reads dist/ from, with the host's rules applied to
   * those reads too, as the host does: a read the rules send to the function
   * is refused there (the function answers its own reads 404), else the file
   * the rules name is served.
   */
  async function hostCdn(route: (target: string, headers: Record<string, string>) => string, isFunction: (dest: string) => boolean) {
    const cdn = createServer((req, res) => {
      const dest = route(req.url!, req.headers as Record<string, string>);
      if (isFunction(dest)) {
        res.writeHead(404).end();
        return;
      }
      req.url = dest;
      void serveHandler(req, res, { public: dist, cleanUrls: false, directoryListing: false });
    });
    await new Promise<void>((ok) => cdn.listen(0, '127.0.0.1', ok));
    cdns.push(cdn);
    return `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    const rules = netlifyRedirects(plan);
    const routes = vercelRoutes(plan);
    // Every file of dist/ is there for the host, the function's own (_folio/edge/) included.
    const fileAt = (path: string) => statSync(join(dist, decodeURIComponent(path)), { throwIfNoEntry: false })?.isFile() === true;
    netlifyOrigin = await hostCdn(
      (t) => netlifyRoute(rules, t, manifest, fileAt),
      (dest) => dest.startsWith(`${NETLIFY_FUNCTION}/`),
    );
    vercelOrigin = await hostCdn(
      (t, headers) => vercelRoute(routes, t, manifest, headers, fileAt),
      (dest) => dest.startsWith(VERCEL_FUNCTION),
    );
    serve = await startServer({ dir: dist, port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await serve?.close();
    for (const cdn of cdns) await new Promise((ok) => cdn.close(ok));
    cdns = [];
  });

  const cases: [string, string, RequestInit?][] = [
    ['/api/v1/posts?limit=3&offset=2', 'computed paging'],
    ['/api/v1/posts?tag=ci', 'a precomputed query'],
    ['/blog', 'a page', { headers: { accept: 'text/html' } }],
    ['/blog', 'a negotiated twin', { headers: { accept: 'text/markdown' } }],
    ['/no-such-page', 'the 404 page'],
    ['/api/v1/posts', 'a 405', { method: 'POST', body: '{}' }],
    // Files under rules that send their addresses to the function, which reads them past those rules.
    ['/blog/short-lived-ssh-certificates', 'a post page', { headers: { accept: 'text/html' } }],
    ['/blog/short-lived-ssh-certificates', 'a post twin by Accept', { headers: { accept: 'text/markdown' } }],
    ['/blog/short-lived-ssh-certificates.md', 'a post twin'],
    ['/blog/tags/email.md', 'a tag twin'],
    ['/projects/bouncedesk', 'a project page'],
  ];

  it("answer like folio serve, reading dist/ over HTTP through the host's own rules, whichever way the rewrite passed the path", async () => {
    // As functions/_netlify/folio.ts and functions/_vercel/folio.ts make them.
    const netlifyFn = originHandler({ prefix: NETLIFY_FUNCTION, files: NETLIFY_FILES });
    const vercelFn = originHandler({ param: '__folio_path' });
    expect(await readFile('functions/_netlify/folio.ts', 'utf8')).toContain(
      `originHandler({ prefix: '${NETLIFY_FUNCTION}', files: '${NETLIFY_FILES}' })`,
    );
    for (const [target, label, init] of cases) {
      const expected = await fetch(serve.url + target, init);
      const body = await expected.text();
      const [path, query = ''] = target.split('?');
      const viaNetlify = await netlifyFn(new Request(`${netlifyOrigin}${NETLIFY_FUNCTION}${target}`, init));
      const viaVercel = await vercelFn(
        new Request(`${vercelOrigin}${VERCEL_FUNCTION}?__folio_path=${path}${query ? `&${query}` : ''}`, init),
      );
      const asIs = await netlifyFn(new Request(netlifyOrigin + target, init));
      for (const [how, res] of [
        ['Netlify prefix', viaNetlify],
        ['Vercel parameter', viaVercel],
        ['original URL', asIs],
      ] as const) {
        expect(res.status, `${label} via ${how}`).toBe(expected.status);
        expect(await res.text(), `${label} via ${how}`).toBe(body);
        for (const name of ['content-type', 'cache-control', 'vary', 'link', 'allow', 'etag'])
          expect(res.headers.get(name), `${label} via ${how}: ${name}`).toBe(expected.headers.get(name));
      }
    }
  });

  it('never answers their own file reads, so a missing file cannot loop back into them', async () => {
    const res = await originHandler({ prefix: NETLIFY_FUNCTION })(
      new Request(`${netlifyOrigin}/blog.html`, { headers: { [INTERNAL_READ]: '1' } }),
    );
    expect(res.status).toBe(404);
    // The mark the function sends is the one vercel.json's routes let pass to the files.
    const { INTERNAL } = await import('../functions/_shared/origin.js');
    expect(INTERNAL).toBe(INTERNAL_READ);
  });
});
