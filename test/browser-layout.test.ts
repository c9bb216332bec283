// D20, D24, D44 in a real browser: a post's images keep the space reserved for
// them at phone and desktop widths (no layout shift, a WebP variant on a
// phone), nothing overflows sideways, and screenshots of home and a post at
// both widths go to test-artifacts/.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM } from './helpers/browser.js';
import { seriousViolations, siteInBrowser, VIEWPORTS } from './helpers/browser-site.js';

const ARTIFACTS = 'test-artifacts';

describe.skipIf(!HAS_CHROMIUM)('the site in a real browser (D20, D24)', () => {
  const s = siteInBrowser(VIEWPORTS.desktop);

  it(
    'shows a post with images at phone and desktop widths with no layout shift (D44), and axe finds nothing serious',
    { timeout: 120_000 },
    async () => {
      // A raster image (it has a srcset); the post's SVG diagrams are checked for shift too.
      const post = s.site.posts.find((p) => p.image?.url.endsWith('.png'))!;
      expect(post, 'a sample post with a PNG').toBeDefined();
      for (const [name, viewport] of Object.entries(VIEWPORTS)) {
        const page = await s.context.newPage();
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
        const serious = await seriousViolations(page);
        expect(serious, name).toEqual([]);
        await page.close();
      }
    },
  );

  it('saves screenshots of home and a post at phone and desktop widths', { timeout: 60_000 }, async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const post = s.site.posts.find((p) => /^\|/m.test(p.content_markdown) && /^```/m.test(p.content_markdown)) ?? s.site.posts[0]!;
    const page = await s.context.newPage();
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
