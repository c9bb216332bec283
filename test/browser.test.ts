// D20, D24 in a real browser: Debian's chromium, driven by playwright-core,
// opens every page of the sample site over `folio serve`. No console errors
// (a CSP violation is one), no broken links or fragment targets, no serious
// or critical axe-core violation in light or dark mode, and screenshots of
// home and a post at phone and desktop widths in test-artifacts/.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedPages, serveBuilt } from './helpers/site.js';
import { writeSmallSite } from './helpers/small-site.js';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './helpers/browser.js';

const ARTIFACTS = 'test-artifacts';
// The phone is 320 CSS px wide, the narrowest WCAG 1.4.10 (reflow) asks a page to fit without scrolling sideways.
const VIEWPORTS = { phone: { width: 320, height: 640 }, desktop: { width: 1280, height: 900 } } as const;

const available = HAS_CHROMIUM;
if (!available) console.warn(`browser.test.ts: skipped because ${CHROMIUM} is missing (apt-get install chromium).`);

interface Visit {
  errors: string[];
  links: string[];
  ids: string[];
}

/** Opens a page, recording console errors, failed loads, links and element ids. */
async function visit(page: Page, base: string, path: string): Promise<Visit> {
  const errors: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) => void (m.type() === 'error' && errors.push(`console: ${m.text()}`));
  const onError = (e: Error) => void errors.push(`pageerror: ${e.message}`);
  // A lazy image still loading when the previous page is left is aborted by the navigation: not this page's failure.
  const onFailed = (r: { url(): string; resourceType(): string; failure(): { errorText: string } | null }) => {
    if (r.resourceType() === 'image' && r.failure()?.errorText === 'net::ERR_ABORTED') return;
    errors.push(`failed: ${r.url()} ${r.failure()?.errorText}`);
  };
  page.on('console', onConsole);
  page.on('pageerror', onError);
  page.on('requestfailed', onFailed);
  try {
    const res = await page.goto(base + path, { waitUntil: 'load' });
    expect(res?.status(), path).toBe(200);
    const found = await page.evaluate(() => ({
      links: [...document.querySelectorAll('a[href], link[href]')].map((a) => (a as HTMLAnchorElement).href),
      ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    // Nothing may push the page sideways on a phone: wide tables and code scroll in their own box.
    if (found.overflow > 0) errors.push(`overflows the viewport by ${found.overflow}px`);
    // Fragment links and aria references need ids to be unique.
    const duplicates = found.ids.filter((id, i) => found.ids.indexOf(id) !== i);
    if (duplicates.length) errors.push(`duplicate ids: ${[...new Set(duplicates)].join(', ')}`);
    return { errors, links: found.links, ids: found.ids };
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onError);
    page.off('requestfailed', onFailed);
  }
}

describe.skipIf(!available)('the site in a real browser (D20, D24)', () => {
  let s: Awaited<ReturnType<typeof serveBuilt>>;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let context: BrowserContext;
  let axeSource: string;
  const visits = new Map<string, Visit>();

  beforeAll(async () => {
    s = await serveBuilt();
    axeSource = await readFile('node_modules/axe-core/axe.min.js', 'utf8');
    browser = await launchChromium(VIEWPORTS.desktop);
    context = browser.context;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it(
    'opens every page at phone width with no console error, failed load, duplicate id or sideways overflow',
    { timeout: 120_000 },
    async () => {
      const page = await context.newPage();
      await page.setViewportSize(VIEWPORTS.phone);
      for (const path of expectedPages(s.site)) {
        const v = await visit(page, s.url, path);
        visits.set(path, v);
        expect(v.errors, path).toEqual([]);
      }
      await page.close();
      expect(visits.size).toBeGreaterThan(30);
    },
  );

  it('finds no broken link and no missing fragment target', { timeout: 120_000 }, async () => {
    expect(visits.size, 'runs after the visit test').toBeGreaterThan(0);
    const site = s.site.config.site_url;
    const checked = new Map<string, number>();
    const broken: string[] = [];
    for (const [from, v] of visits) {
      for (const href of v.links) {
        if (href.startsWith('data:') || href.startsWith('mailto:')) continue;
        // The site's own absolute URLs (canonical, contact) point at this server in the test.
        const local = href.startsWith(site) ? s.url + href.slice(site.length) : href;
        if (!local.startsWith(s.url)) continue;
        const url = new URL(local);
        const target = url.pathname + url.search;
        if (url.hash && url.hash.length > 1) {
          const ids = visits.get(url.pathname)?.ids;
          if (ids && !ids.includes(decodeURIComponent(url.hash.slice(1)))) broken.push(`${from} → ${href}: no element with that id`);
        }
        if (!checked.has(target)) checked.set(target, (await fetch(s.url + target)).status);
        const status = checked.get(target)!;
        if (status !== 200) broken.push(`${from} → ${href}: ${status}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked.size).toBeGreaterThan(expectedPages(s.site).length);
  });

  it('has no axe-core violation above minor, in light and dark mode', { timeout: 300_000 }, async () => {
    const page = await context.newPage();
    const dark = new Set([
      '/',
      '/about',
      '/services',
      '/blog',
      '/projects',
      '/developers',
      `/blog/${s.site.posts[0]!.slug}`,
      `/projects/${s.site.projects[0]!.id}`,
      `/blog/tags/${s.site.tags[0]!.tag}`,
    ]);
    const failures: string[] = [];
    // Dark mode changes colours only, so it is checked by the rules that
    // read colours, on the page as loaded, once the scheme is switched
    // (the stylesheet follows prefers-color-scheme live); every rule runs in light mode.
    const rules = { light: {}, dark: { runOnly: { type: 'rule', values: ['color-contrast', 'link-in-text-block'] } } };
    // Every page but the tag pages after the first: a tag page is the blog
    // list's template showing a subset of its items, which /blog shows all
    // of (the phone-width test above still opens every one).
    const tagPages = s.site.tags.slice(1).map((t) => `/blog/tags/${t.tag}`);
    for (const path of expectedPages(s.site).filter((p) => !tagPages.includes(p))) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(s.url + path, { waitUntil: 'load' });
      // Evaluated through the DevTools protocol, which the page's CSP does not govern.
      await page.evaluate(axeSource);
      for (const scheme of dark.has(path) ? (['light', 'dark'] as const) : (['light'] as const)) {
        await page.emulateMedia({ colorScheme: scheme });
        const violations = await page.evaluate(async (only) => {
          const axe = (
            window as unknown as {
              axe: {
                run(
                  ctx: Document,
                  options: object,
                ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
              };
            }
          ).axe;
          const result = await axe.run(document, { resultTypes: ['violations'], ...only });
          return result.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
          }));
        }, rules[scheme]);
        // Moderate ones too (a skipped heading level): only axe's minor findings are left to judgement.
        for (const v of violations)
          if (v.impact !== 'minor') failures.push(`${scheme} ${path}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(', ')}`);
      }
    }
    await page.close();
    expect(failures).toEqual([]);
  });

  it('prints dark text on white paper whatever the screen scheme', async () => {
    const page = await context.newPage();
    await page.goto(`${s.url}/blog/${s.site.posts[0]!.slug}`, { waitUntil: 'load' });
    const colours = async () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.documentElement);
        return [
          style.getPropertyValue('--text').trim(),
          style.getPropertyValue('--muted').trim(),
          style.getPropertyValue('--surface').trim(),
        ];
      });
    await page.emulateMedia({ media: 'screen', colorScheme: 'light' });
    const light = await colours();
    await page.emulateMedia({ media: 'screen', colorScheme: 'dark' });
    expect(await colours()).not.toEqual(light);
    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    expect(await colours()).toEqual(light);
    await page.close();
  });

  it(
    'shows a post with images at phone and desktop widths with no layout shift (D44), and axe finds nothing serious',
    { timeout: 120_000 },
    async () => {
      // A raster image (it has a srcset); the post's SVG diagrams are checked for shift too.
      const post = s.site.posts.find((p) => p.image?.url.endsWith('.png'))!;
      expect(post, 'a sample post with a PNG').toBeDefined();
      for (const [name, viewport] of Object.entries(VIEWPORTS)) {
        const page = await context.newPage();
        await page.setViewportSize(viewport);
        // Cumulative layout shift, as the browser measures it, from before the first paint.
        await page.addInitScript(() => {
          const w = window as unknown as { cls: number };
          w.cls = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!e.hadRecentInput) w.cls += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        // Images are held back until the page is measured without them.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/media/**', async (route) => {
          await held;
          await route.continue();
        });
        await page.goto(`${s.url}/blog/${post.slug}`, { waitUntil: 'domcontentloaded' });
        await page.waitForFunction(() =>
          [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => (l as HTMLLinkElement).sheet),
        );
        const measure = () =>
          page.evaluate(() =>
            [...document.querySelectorAll('main img')].map((img) => {
              const r = img.getBoundingClientRect();
              const i = img as HTMLImageElement;
              return {
                top: Math.round(r.top + window.scrollY),
                width: Math.round(r.width),
                height: Math.round(r.height),
                loaded: i.complete && i.naturalWidth > 0,
                src: i.currentSrc,
              };
            }),
          );
        const before = await measure();
        expect(before.length, name).toBeGreaterThan(0);
        for (const b of before) {
          expect(b.loaded, `${name}: measured before the image arrived`).toBe(false);
          expect(b.height, `${name}: space reserved by width and height`).toBeGreaterThan(0);
          expect(b.width, name).toBeLessThanOrEqual(viewport.width);
        }
        release();
        for (const img of await page.locator('main img').all()) {
          await img.scrollIntoViewIfNeeded();
          await page.waitForFunction(
            (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
            await img.elementHandle(),
            { timeout: 30_000 },
          );
        }
        const after = await measure();
        expect(
          after.map(({ top, width, height }) => ({ top, width, height })),
          name,
        ).toEqual(before.map(({ top, width, height }) => ({ top, width, height })));
        expect(await page.evaluate(() => (window as unknown as { cls: number }).cls), `${name}: cumulative layout shift`).toBe(0);
        // A raster image comes from its srcset: a WebP variant no wider than needed on a phone.
        if (name === 'phone')
          expect(
            after.some((a) => /-\d+\.webp$/.test(a.src)),
            JSON.stringify(after),
          ).toBe(true);
        await page.evaluate(axeSource);
        const serious = await page.evaluate(async () => {
          const axe = (
            window as unknown as { axe: { run(ctx: Document, options: object): Promise<{ violations: { id: string; impact: string }[] }> } }
          ).axe;
          return (await axe.run(document, { resultTypes: ['violations'] })).violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => v.id);
        });
        expect(serious, name).toEqual([]);
        await page.close();
      }
    },
  );

  it('saves screenshots of home and a post at phone and desktop widths', { timeout: 60_000 }, async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const post = s.site.posts.find((p) => /^\|/m.test(p.content_markdown) && /^```/m.test(p.content_markdown)) ?? s.site.posts[0]!;
    const page = await context.newPage();
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const [label, path] of [
        ['home', '/'],
        ['post', `/blog/${post.slug}`],
      ] as const) {
        await page.goto(s.url + path, { waitUntil: 'load' });
        // Nothing may overflow the viewport sideways: wide tables and code scroll inside their own box.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${label} at ${name}`).toBeLessThanOrEqual(0);
        const file = join(ARTIFACTS, `${label}-${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        expect(existsSync(file)).toBe(true);
      }
    }
    await page.close();
  });
});

// D59 in the browser: a small site (one post without tags, no services, no
// projects) reads well. Every page opens cleanly at phone width, no link on
// any page leads to an empty list or nowhere, and axe finds nothing serious.
describe.skipIf(!available)('a small site in a real browser (D59)', () => {
  let s: Awaited<ReturnType<typeof serveBuilt>>;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let context: BrowserContext;
  let content: string;

  beforeAll(async () => {
    content = await mkdtemp(join(tmpdir(), 'folio-small-browser-'));
    await writeSmallSite(content, { posts: 1, services: 0, projects: 0 });
    s = await serveBuilt(content);
    browser = await launchChromium(VIEWPORTS.phone);
    context = browser.context;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    if (content) await rm(content, { recursive: true, force: true });
  });

  it('opens every page cleanly, links nowhere empty and has no serious axe violation', { timeout: 120_000 }, async () => {
    const axeSource = await readFile('node_modules/axe-core/axe.min.js', 'utf8');
    const page = await context.newPage();
    const empty = new Set(['/services', '/projects']);
    const problems: string[] = [];
    // The empty list pages still open (and say so), but nothing links to them.
    for (const path of ['/', '/about', '/blog', `/blog/${s.site.posts[0]!.slug}`, '/developers', '/services', '/projects']) {
      const v = await visit(page, s.url, path);
      problems.push(...v.errors.map((e) => `${path}: ${e}`));
      for (const href of v.links) {
        const url = new URL(href);
        if (url.origin !== s.url) continue;
        // In-page links (the skip link) stay on the page.
        if (empty.has(url.pathname) && url.pathname !== path) problems.push(`${path} links the empty list ${url.pathname}`);
        else if ((await fetch(s.url + url.pathname + url.search)).status !== 200) problems.push(`${path} → ${href}: broken`);
      }
      const text = await page.evaluate(() => document.body.innerText);
      if (empty.has(path) && !/No (services|projects) are published yet\./.test(text))
        problems.push(`${path} does not say nothing is published yet`);
      await page.evaluate(axeSource);
      const serious = await page.evaluate(async () => {
        const axe = (
          window as unknown as { axe: { run(ctx: Document, options: object): Promise<{ violations: { id: string; impact: string }[] }> } }
        ).axe;
        return (await axe.run(document, { resultTypes: ['violations'] })).violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => v.id);
      });
      problems.push(...serious.map((id) => `${path}: axe ${id}`));
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});
