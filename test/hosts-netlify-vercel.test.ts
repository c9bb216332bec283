// The Netlify and Vercel printers (D39): netlify.toml and vercel.json,
// printed from the sample's manifest and from generated sites of a few
// hundred posts. Neither host can run here, so their rules are replayed with
// each host's documented matching (helpers/hosts.ts), and every answer they
// route to a file is compared with what the core answers for the same request.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH, routeHeaders, type Manifest } from '../build/core/files.js';
import { build } from '../build/emit/build.js';
import { cloudflare } from '../build/emit/hosts/cloudflare.js';
import { checkNetlify, checkVercel } from '../build/emit/hosts/limits.js';
import { NETLIFY_FUNCTION, netlify, netlifyHeaders, netlifyRedirects } from '../build/emit/hosts/netlify.js';
import { fileUrl, planHosts } from '../build/emit/hosts/plan.js';
import { VERCEL_FUNCTION, vercel, vercelRoutes, type VercelRoute } from '../build/emit/hosts/vercel.js';
import { writeCorpus } from './helpers/corpus.js';
import {
  expectFaithful,
  hostSample,
  netlifyRoute,
  parseHeaders,
  ruleCounts,
  siteCorpus,
  text,
  vercelFileHeaders,
  vercelRoute,
  type Built,
} from './helpers/hosts.js';
import { builtManifest, NOW, tempDir } from './helpers/site.js';

const sample = hostSample();

describe('Netlify printer', () => {
  it('writes netlify.toml that a TOML parser reads back as the same rules', () => {
    const toml = parseToml(text(netlify(sample.plan), 'netlify.toml')) as {
      redirects: Record<string, unknown>[];
      headers: { for: string; values: Record<string, string> }[];
    };
    const rules = netlifyRedirects(sample.plan);
    expect(toml.redirects).toHaveLength(rules.length);
    toml.redirects.forEach((r, i) => {
      expect(r).toMatchObject({ from: rules[i]!.from, to: rules[i]!.to, status: 200, force: rules[i]!.force });
      expect(r.query ?? {}).toEqual(Object.fromEntries(rules[i]!.query ?? []));
    });
    expect(toml.headers.map((h) => ({ for: h.for, headers: h.values }))).toEqual(netlifyHeaders(sample.plan));
    expect(checkNetlify(text(netlify(sample.plan), 'netlify.toml'))).toEqual([]);
  });

  it('routes query strings to precomputed files only when the file is the exact answer (D8-D11, D38)', async () => {
    const rules = netlifyRedirects(sample.plan);
    const files = await expectFaithful(
      (t) => netlifyRoute(rules, t, sample.manifest),
      (dest) => dest.startsWith(`${NETLIFY_FUNCTION}/`),
      sample,
    );
    expect(files).toBeGreaterThanOrEqual(8);
    expect(netlifyRoute(rules, '/api/v1/projects?status=live', sample.manifest)).toBe('/api/v1/projects@status=live.json');
    expect(netlifyRoute(rules, '/api/v1/posts?utm_source=x', sample.manifest)).toBe('/api/v1/posts.json');
    // Tags grow with the content: their precomputed answers are the function's to read.
    expect(netlifyRoute(rules, '/api/v1/posts?tag=ci', sample.manifest)).toBe(`${NETLIFY_FUNCTION}/api/v1/posts`);
    expect(netlifyRoute(rules, '/api/v1/posts?tag=ci&limit=5', sample.manifest)).toBe(`${NETLIFY_FUNCTION}/api/v1/posts`);
  });

  it('sends pages to the function for negotiation, and unknown paths to the core (D21, D23)', () => {
    const rules = netlifyRedirects(sample.plan);
    for (const page of sample.plan.negotiated) expect(netlifyRoute(rules, page, sample.manifest), page).toBe(`${NETLIFY_FUNCTION}${page}`);
    expect(netlifyRoute(rules, '/no-such-page', sample.manifest)).toBe(`${NETLIFY_FUNCTION}/no-such-page`);
    expect(netlifyRoute(rules, '/llms.txt', sample.manifest)).toBe('/llms.txt');
    expect(rules.at(-1)).toEqual({ from: '/*', to: `${NETLIFY_FUNCTION}/:splat`, force: false });
  });

  it('gives every file it serves its manifest headers, under its address and its file path', () => {
    const byPath = new Map(netlifyHeaders(sample.plan).map((h) => [h.for, h.headers]));
    const shared = parseHeaders(text(cloudflare(sample.plan), '_headers'));
    const rules = netlifyRedirects(sample.plan);
    for (const [target, route] of Object.entries(sample.manifest.routes)) {
      const file = route[0];
      if (netlifyRoute(rules, target, sample.manifest).startsWith(`${NETLIFY_FUNCTION}/`)) continue;
      const path = target.split('?')[0]!;
      const expected = routeHeaders(sample.manifest.header_sets, route);
      expect(byPath.get(path) ?? shared.get(path), target).toEqual(expected);
      if (fileUrl(file) !== path) expect(byPath.get(fileUrl(file)), file).toEqual(expected);
    }
  });
});

describe('Vercel printer', () => {
  it('writes routes that compile, within the schema limits', () => {
    const body = text(vercel(sample.plan), 'vercel.json');
    expect(checkVercel(body)).toEqual([]);
    const config = JSON.parse(body);
    expect(config.outputDirectory).toBe('dist');
    for (const r of config.routes as VercelRoute[]) if (r.src) expect(() => new RegExp(r.src!)).not.toThrow();
    expect(config.routes.filter((r: VercelRoute) => r.handle === 'filesystem')).toHaveLength(1);
  });

  it('routes exact query strings to precomputed files with has and missing (D8-D11, D38)', async () => {
    const routes = vercelRoutes(sample.plan);
    const files = await expectFaithful(
      (t) => vercelRoute(routes, t, sample.manifest),
      (dest) => dest.startsWith(VERCEL_FUNCTION),
      sample,
    );
    expect(files).toBeGreaterThanOrEqual(8);
    expect(vercelRoute(routes, '/api/v1/projects?status=sunset', sample.manifest)).toBe('/api/v1/projects@status=sunset.json');
    expect(vercelRoute(routes, '/api/v1/posts?tag=ci&offset=0', sample.manifest)).toBe(`${VERCEL_FUNCTION}?__folio_path=/api/v1/posts`);
  });

  it('routes pages to the function before their .html files, and leaves /.well-known alone', () => {
    const routes = vercelRoutes(sample.plan);
    for (const page of sample.plan.negotiated)
      expect(vercelRoute(routes, page, sample.manifest), page).toBe(`${VERCEL_FUNCTION}?__folio_path=${page}`);
    expect(vercelRoute(routes, '/no-such-page', sample.manifest)).toBe(`${VERCEL_FUNCTION}?__folio_path=/no-such-page`);
    for (const r of routes) if (r.dest) expect(r.src ?? '', 'Vercel reserves /.well-known').not.toMatch(/well-known/);
  });

  it('gives every file it serves the manifest headers', () => {
    const routes = vercelRoutes(sample.plan);
    let files = 0;
    for (const [target, route] of Object.entries(sample.manifest.routes)) {
      const file = route[0];
      if (
        vercelRoute(routes, target, sample.manifest).startsWith(VERCEL_FUNCTION) ||
        (target.startsWith('/.well-known/') && fileUrl(file) !== target)
      )
        continue;
      files++;
      expect(vercelFileHeaders(routes, target.split('?')[0]!, file), target).toEqual(routeHeaders(sample.manifest.header_sets, route));
    }
    // Every one-off twin, document and fixed-value query: pages, item twins and per-item API answers are the function's.
    expect(files).toBeGreaterThan(20);
  });
});

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
