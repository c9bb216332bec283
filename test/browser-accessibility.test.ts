// D20, D24 in a real browser: axe-core finds no violation above minor on any
// page of the sample site over `folio serve`, in light mode and, on the pages
// whose colours differ, dark mode; printing gives dark text on white paper
// whatever the screen's scheme.
import { describe, expect, it } from 'vitest';
import { expectedPages } from './helpers/site.js';
import { HAS_CHROMIUM } from './helpers/browser.js';
import { injectAxe, siteInBrowser, VIEWPORTS } from './helpers/browser-site.js';

describe.skipIf(!HAS_CHROMIUM)('the site in a real browser (D20, D24)', () => {
  const s = siteInBrowser(VIEWPORTS.desktop);

  it('has no axe-core violation above minor, in light and dark mode', { timeout: 300_000 }, async () => {
    const page = await s.context.newPage();
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
    // of (the phone-width test in browser-pages.test.ts still opens every one).
    const tagPages = s.site.tags.slice(1).map((t) => `/blog/tags/${t.tag}`);
    for (const path of expectedPages(s.site).filter((p) => !tagPages.includes(p))) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(s.url + path, { waitUntil: 'load' });
      await injectAxe(page);
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
    const page = await s.context.newPage();
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
});
