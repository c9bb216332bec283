// The Cloudflare Pages printer (D39): _headers, _redirects and _routes.json,
// printed from the sample's manifest, and the limit checks that stop a build
// before a deploy would fail, on its own and through the CLI (D40).
import { spawnSync } from 'node:child_process';
import { rm, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeHeaders } from '../build/core/files.js';
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
import { fileRoutes, fileUrl, planHosts } from '../build/emit/hosts/plan.js';
import { hostSample, parseHeaders, text, withTwins } from './helpers/hosts.js';
import { buildInto, builtManifest, tempDir, treeHash } from './helpers/site.js';

const sample = hostSample();

describe('Cloudflare Pages printer', () => {
  it('sends everything to the functions except files that need no decision (D38, D39)', () => {
    const routes = JSON.parse(text(cloudflare(sample.plan), '_routes.json'));
    expect(checkCloudflareRoutes(JSON.stringify(routes))).toEqual([]);
    expect(routes.include).toEqual(['/*']);
    for (const path of routes.exclude) {
      expect(sample.manifest.routes[path], path).toBeDefined();
      expect(path.startsWith('/api/'), path).toBe(false);
      expect(routeHeaders(sample.manifest.header_sets, sample.manifest.routes[path]!)['content-type'], path).not.toMatch(/html/);
    }
    // The sample fits the budget: every document and twin is a plain file.
    expect(routes.exclude.length).toBe(fileRoutes(sample.plan).length);
    expect(routes.exclude).toEqual(
      expect.arrayContaining(['/llms.txt', '/blog.md', '/index.md', '/.well-known/api-catalog', '/assets/site.css']),
    );
    for (const page of ['/', '/blog', '/about', '/api/v1', '/api/v1/posts', '/mcp']) expect(routes.exclude).not.toContain(page);
  });

  it('gives every file Pages serves the exact header set of its manifest route (D39)', () => {
    const body = text(cloudflare(sample.plan), '_headers');
    expect(checkCloudflareHeaders(body)).toEqual([]);
    const rules = parseHeaders(body);
    const excluded = JSON.parse(text(cloudflare(sample.plan), '_routes.json')).exclude as string[];
    expect([...rules.keys()].sort()).toEqual([...excluded].sort());
    for (const [path, headers] of rules)
      expect(headers, path).toEqual(routeHeaders(sample.manifest.header_sets, sample.manifest.routes[path]!));
  });

  it('rewrites extension-less documents to the files that hold them, and redirects moved addresses (D48), nothing else', () => {
    const body = text(cloudflare(sample.plan), '_redirects');
    expect(checkCloudflareRedirects(body)).toEqual([]);
    const lines = body.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines).toContain('/.well-known/api-catalog /.well-known/api-catalog.json 200');
    const moved = lines.filter((l) => l.endsWith(' 301'));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved).toEqual(Object.entries(sample.site.redirects).map(([from, to]) => `${from} ${to} 301`));
    for (const line of lines.filter((l) => !l.endsWith(' 301'))) {
      const [from, to, status] = line.split(' ');
      expect(status).toBe('200');
      expect(to, from).toBe(fileUrl(sample.manifest.routes[from!]![0]));
      expect(to).not.toBe(from);
    }
  });

  it('stays within 100 rules however many twins there are; the rest is left to the function', () => {
    const big = withTwins(sample.manifest, 300);
    const files = cloudflare(planHosts(sample.site, builtManifest(big)));
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
    const long = withTwins(sample.manifest, 1, 120);
    const path = Object.keys(long.routes).find((p) => p.startsWith('/blog/extra-'))!;
    expect(path.length).toBeGreaterThan(CLOUDFLARE.routesRuleLength);
    expect(cloudflareStatic(planHosts(sample.site, builtManifest(long))).map((r) => r.path)).not.toContain(path);
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
    // Netlify reads _redirects too: its rules count, its comments and blank lines do not.
    const tables = '[[redirects]]\n'.repeat(9_000);
    const lines = (n: number) => `# aliases\n\n${'/old /new 301\n'.repeat(n)}`;
    expect(checkNetlify(tables, lines(1_000))).toEqual([]);
    expect(checkNetlify(tables, lines(1_001)).join()).toMatch(/have 10001 redirect rules \(9000 and 1001\).*fewer aliases/);
    // Vercel's routes grow with the aliases alone, and the message says so.
    expect(checkVercel(JSON.stringify({ routes: Array.from({ length: 2049 }, () => ({ src: '^/a$' })) })).join()).toMatch(
      /two or three for each alias/,
    );
  });

  it('throws one error that names every problem and the way out', () => {
    const files = [
      { path: '_routes.json', body: routes(120) },
      { path: '_headers', body: '' },
      { path: '_redirects', body: '' },
    ];
    const error = (() => {
      try {
        checkHostLimits(files, builtManifest(sample.manifest));
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
    expect(() => checkHostLimits(files, builtManifest(sample.manifest), ['vercel'], (w) => warnings.push(w))).not.toThrow();
    expect(warnings[0]).toMatch(/^_routes\.json has 121 include and exclude rules/);
    expect(warnings).toContain(
      'netlify.toml and _redirects have 10001 redirect rules (10001 and 0); Netlify advises against 10000 and fails deploys whose rules are too large. Each alias adds two or three (its 301s): fewer aliases reduce them.',
    );
    expect(warnings.at(-1)).toMatch(/^cloudflare, netlify would refuse this output; the build goes on because --host does not name them/);
    warnings.length = 0;
    expect(() => checkHostLimits(files, builtManifest(sample.manifest), ['netlify'], (w) => warnings.push(w))).toThrow(
      /^The build output would not deploy:\n {2}- netlify\.toml and _redirects have 10001 redirect rules[^]*previous output/,
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
