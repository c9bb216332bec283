// A consultant's own site over a real `folio serve` (D43, D46, D48): static
// files at their own path with their type, the theme stylesheet after the
// built-in one, and old addresses answering 301 on every form and host file.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseYamlFile } from '../build/content/frontmatter.js';
import { readSiteConfig } from '../build/content/site-config.js';
import type { Problem } from '../build/content/problems.js';
import { MANIFEST_PATH, type Manifest } from '../build/core/files.js';
import { STYLESHEET } from '../build/core/pages/style.js';
import { contrast, parseHex, SCHEMES, themeCss } from '../build/core/theme.js';
import { printRedirects } from '../build/emit/hosts/cloudflare.js';
import { checkCloudflareRedirects } from '../build/emit/hosts/limits.js';
import { planHosts } from '../build/emit/hosts/plan.js';
import { vercelRoutes } from '../build/emit/hosts/vercel.js';
import { attr, byTag, parseHtml } from './helpers/html.js';
import { copyContent, serveBuilt, builtManifest } from './helpers/site.js';

let dir: string;
let s: Awaited<ReturnType<typeof serveBuilt>>;
let manifest: Manifest;
let warnings: string;
const ICO = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 0]);
const BIG = 1024 * 1024 + 10;

beforeAll(async () => {
  dir = await copyContent();
  await mkdir(join(dir, 'static/files'), { recursive: true });
  await writeFile(join(dir, 'static/favicon.ico'), ICO);
  await writeFile(join(dir, 'static/files/cv.pdf'), '%PDF-1.4\n%mine\n');
  await writeFile(join(dir, 'static/files/slides.bin'), Buffer.alloc(BIG, 7));
  // In folders named as pages are: a page's file is blog.html, beside the folder blog/.
  await mkdir(join(dir, 'static/blog/img'), { recursive: true });
  await mkdir(join(dir, 'static/about'), { recursive: true });
  await writeFile(join(dir, 'static/blog/img/widget.mjs'), 'export const widget = 1;\n');
  await writeFile(join(dir, 'static/about/cv.yaml'), 'name: Hanna\n');
  await writeFile(
    join(dir, 'static/mark.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>\n',
  );
  await writeFile(join(dir, 'theme.css'), '.site-header { border-bottom-width: 3px; }\n');
  // A project and a service renamed too (the sample renames a post). An
  // alias listed twice in one file is one redirect, as a tag listed twice is one tag.
  for (const [file, alias] of [
    ['projects/jumpcfg.md', '/projects/ssh-jump-config'],
    ['services/email-deliverability.md', '/services/email'],
  ] as const) {
    const text = await readFile(join(dir, file), 'utf8');
    await writeFile(
      join(dir, file),
      text.replace(/^title:/m, `aliases: [${alias}, /old/${alias.split('/').pop()}.html, ${alias}]\ntitle:`),
    );
  }
  const stderr = process.stderr.write;
  let captured = '';
  process.stderr.write = ((chunk: string) => ((captured += chunk), true)) as typeof process.stderr.write;
  try {
    s = await serveBuilt(dir);
  } finally {
    process.stderr.write = stderr;
  }
  warnings = captured;
  manifest = JSON.parse(await readFile(join(s.out, MANIFEST_PATH), 'utf8'));
});
afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string, init: RequestInit = {}) => fetch(s.at(path), { redirect: 'manual', ...init });

describe('static files (D43)', () => {
  it.each([
    ['/favicon.ico', 'image/x-icon', 'static/favicon.ico'],
    ['/files/cv.pdf', 'application/pdf', 'static/files/cv.pdf'],
    ['/files/slides.bin', 'application/octet-stream', 'static/files/slides.bin'],
    ['/mark.svg', 'image/svg+xml', 'static/mark.svg'],
    ['/.well-known/security.txt', 'text/plain; charset=utf-8', 'static/.well-known/security.txt'],
    ['/blog/img/widget.mjs', 'text/javascript; charset=utf-8', 'static/blog/img/widget.mjs'],
    ['/about/cv.yaml', 'application/yaml; charset=utf-8', 'static/about/cv.yaml'],
  ])('serves %s as %s, byte for byte, with CORS, nosniff and an ETag; HEAD matches', async (path, type, file) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(join(dir, file)))).toBe(true);
    const head = await get(path, { method: 'HEAD' });
    expect(head.headers.get('content-type')).toBe(type);
    expect(await head.text()).toBe('');
    // Every host serves it from the manifest, with the same headers.
    expect(manifest.routes[path]?.[0]).toBe(path.slice(1));
  });

  it('serves an SVG with a policy that stops script when it is opened directly', async () => {
    const res = await get('/mark.svg');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
  });

  it('warns about a file over 1 MiB and still publishes it', () => {
    expect(warnings).toMatch(/folio: warning: .*static\/files\/slides\.bin is 1\.0 MiB; files over 1 MiB slow down/);
  });

  it('lets content link to a static file (the link check knows it)', () => {
    expect(s.site.static.map((f) => f.path)).toEqual(expect.arrayContaining(['/favicon.ico', '/files/cv.pdf', '/mark.svg']));
  });
});

describe('theme (D46)', () => {
  it('checks against the page backgrounds the built-in stylesheet really has', () => {
    const dark = STYLESHEET.slice(STYLESHEET.indexOf('prefers-color-scheme: dark'));
    expect(/--bg: (#[0-9a-f]{6})/.exec(STYLESHEET)![1]).toBe(SCHEMES.light.bg);
    expect(/--bg: (#[0-9a-f]{6})/.exec(dark)![1]).toBe(SCHEMES.dark.bg);
    expect(/--surface: (#[0-9a-f]{6})/.exec(STYLESHEET)![1]).toBe(SCHEMES.light.surface);
    expect(/--surface: (#[0-9a-f]{6})/.exec(dark)![1]).toBe(SCHEMES.dark.surface);
  });

  it('links the theme stylesheet after the built-in one on every page, and no script', async () => {
    for (const path of ['/', '/blog', `/blog/${s.site.posts[0]!.slug}`, '/services/email-deliverability', '/no-such-page']) {
      const html = await (await get(path)).text();
      const links = byTag(parseHtml(html), 'link')
        .filter((l) => attr(l, 'rel') === 'stylesheet')
        .map((l) => attr(l, 'href'));
      expect(links, path).toEqual(['/assets/site.css', '/assets/theme.css']);
      expect(html).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
    }
  });

  it('serves the accents of site.yaml for both schemes, then content/theme.css verbatim', async () => {
    const res = await get('/assets/theme.css');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const css = await res.text();
    const theme = s.site.config.theme!;
    expect(theme.accent).toMatch(/^#[0-9a-f]{6}$/);
    const [light, dark] = css.split('@media screen and (prefers-color-scheme: dark)');
    expect(light).toContain(`--accent: ${theme.accent};`);
    expect(dark).toContain(`--accent: ${theme.accent_dark};`);
    expect(css.trimEnd().endsWith('.site-header { border-bottom-width: 3px; }')).toBe(true);
    // Both accents read on their background (WCAG AA), and so does the text put on them.
    for (const [scheme, accent, part] of [
      ['light', theme.accent!, light!],
      ['dark', theme.accent_dark!, dark!],
    ] as const) {
      for (const bg of [SCHEMES[scheme].bg, SCHEMES[scheme].surface])
        expect(contrast(parseHex(accent)!, parseHex(bg)!)).toBeGreaterThanOrEqual(4.5);
      const onAccent = /--accent-text: (#[0-9a-f]{6})/.exec(part)![1]!;
      expect(contrast(parseHex(accent)!, parseHex(onAccent)!), scheme).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('derives a dark accent of the same hue when only accent is given, and writes no dark rule without one', () => {
    const problems: Problem[] = [];
    const doc = parseYamlFile(
      {
        file: 'site.yaml',
        text: 'title: T\ndescription: D\nsite_url: https://x.example\nlanguage: en\ntheme:\n  accent: "#1a5fb4"\n  font: serif\n',
      },
      problems,
    )!;
    const theme = readSiteConfig(doc, problems)!.config.theme!;
    expect(problems).toEqual([]);
    expect(theme.accent).toBe('#1a5fb4');
    for (const bg of [SCHEMES.dark.bg, SCHEMES.dark.surface])
      expect(contrast(parseHex(theme.accent_dark!)!, parseHex(bg)!)).toBeGreaterThanOrEqual(4.5);
    expect(hue(theme.accent_dark!)).toBeCloseTo(hue('#1a5fb4'), 0);
    const css = themeCss({ ...s.site.config, theme })!;
    expect(css).toMatch(/--font: ui-serif/);
    expect(css.split('prefers-color-scheme: dark')[1]).toContain(`--accent: ${theme.accent_dark};`);
    expect(themeCss({ ...s.site.config, theme: { ...theme, accent_dark: null } })).not.toContain('prefers-color-scheme');
  });
});

/** HSL hue in degrees. */
function hue(hex: string): number {
  const [r, g, b] = parseHex(hex)!.map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe('aliases (D48)', () => {
  const post = () => s.site.posts.find((p) => p.aliases.length)!;

  it('answers 301 from a renamed post’s old page, twin and API address to the new ones', async () => {
    const p = post();
    const old = p.aliases[0]!.split('/').pop()!;
    for (const [from, to] of [
      [`/blog/${old}`, `/blog/${p.slug}`],
      [`/blog/${old}/`, `/blog/${p.slug}`],
      [`/blog/${old}.md`, `/blog/${p.slug}.md`],
      [`/api/v1/posts/${old}`, `/api/v1/posts/${p.slug}`],
    ]) {
      const res = await get(from!);
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect((await get(to!)).status, to).toBe(200);
    }
    expect((await get(`/api/v1/posts/${old}`)).headers.get('x-api-version')).toBe('v1');
    // HEAD too; other methods are still refused as on any GET address.
    expect((await get(`/blog/${old}`, { method: 'HEAD' })).status).toBe(301);
    expect((await get(`/blog/${old}`, { method: 'POST' })).status).toBe(405);
  });

  it('redirects aliases of projects and services, including paths of any shape', async () => {
    for (const [from, to] of [
      ['/projects/ssh-jump-config', '/projects/jumpcfg'],
      ['/api/v1/projects/ssh-jump-config', '/api/v1/projects/jumpcfg'],
      ['/old/ssh-jump-config.html', '/projects/jumpcfg'],
      ['/old/ssh-jump-config.html.md', '/projects/jumpcfg.md'],
      ['/services/email', '/services/email-deliverability'],
      ['/services/email.md', '/services/email-deliverability.md'],
      ['/api/v1/services/email', '/api/v1/services/email-deliverability'],
    ]) {
      const res = await get(from!);
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
    }
  });

  it('puts every redirect in the manifest, _redirects and vercel.json', async () => {
    const moved = Object.entries(manifest.redirects!);
    // The post's alias: page, twin, API; each of the others: page and twin, plus API for the /projects/ and /services/ ones.
    expect(moved.length).toBe(3 + (3 + 2) * 2);
    const cloudflare = (await readFile(join(s.out, '_redirects'), 'utf8')).split('\n');
    for (const [from, to] of moved) expect(cloudflare).toContain(`${from} ${to} 301`);
    const routes = vercelRoutes(planHosts(s.site, builtManifest(manifest)));
    for (const [from, to] of moved) {
      const first = routes.find((r) => r.src && new RegExp(r.src).test(from));
      expect(first, from).toMatchObject({ status: 301, headers: { Location: to } });
    }
    // Each alias costs rules: past Cloudflare's 2,000 static redirects the limit check says so.
    const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`/old/${i}`, '/blog']));
    expect(checkCloudflareRedirects(printRedirects([], many)).join()).toMatch(/2001 static rules; Cloudflare Pages allows 2000/);
    // Netlify reads the same _redirects (docs/hosts.md); its own rules come after it.
    expect(await readFile(join(s.out, 'netlify.toml'), 'utf8')).not.toContain('status = 301');
  });
});
