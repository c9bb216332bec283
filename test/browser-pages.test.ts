// D20, D24 in a real browser: Debian's chromium, driven by playwright-core,
// opens every page of the sample site over `folio serve` at phone width. No
// console errors (a CSP violation is one), failed loads, duplicate ids or
// sideways overflow, and no broken link or fragment target.
import { describe, expect, it } from 'vitest';
import { expectedPages } from './helpers/site.js';
import { HAS_CHROMIUM } from './helpers/browser.js';
import { siteInBrowser, visit, VIEWPORTS, type Visit } from './helpers/browser-site.js';

describe.skipIf(!HAS_CHROMIUM)('the site in a real browser (D20, D24)', () => {
  const s = siteInBrowser(VIEWPORTS.desktop);
  const visits = new Map<string, Visit>();

  it(
    'opens every page at phone width with no console error, failed load, duplicate id or sideways overflow',
    { timeout: 120_000 },
    async () => {
      const page = await s.context.newPage();
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
});
