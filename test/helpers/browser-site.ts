// What the browser tests share: a site served by `folio serve` on 127.0.0.1
// with Debian's chromium open on it for the file's tests, a visit that
// records what went wrong on a page, and axe-core run inside the page.
import { readFile, rm } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './browser.js';
import { serveBuilt } from './site.js';

if (!HAS_CHROMIUM) console.warn(`the browser tests are skipped because ${CHROMIUM} is missing (apt-get install chromium).`);

// The phone is 320 CSS px wide, the narrowest WCAG 1.4.10 (reflow) asks a page to fit without scrolling sideways.
export const VIEWPORTS = { phone: { width: 320, height: 640 }, desktop: { width: 1280, height: 900 } } as const;

type Served = Awaited<ReturnType<typeof serveBuilt>>;

export interface SiteInBrowser {
  /** The test server's base URL. */
  readonly url: string;
  readonly site: Served['site'];
  /** The browser, at the viewport it was opened with. */
  readonly context: BrowserContext;
}

/**
 * The sample, or the content tree `content` makes (removed afterwards), served
 * and opened in a browser at this viewport before the file's tests, and closed after them.
 */
export function siteInBrowser(viewport: { width: number; height: number }, content?: () => Promise<string>): SiteInBrowser {
  let s: Served;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let dir: string | undefined;
  beforeAll(async () => {
    if (content) dir = await content();
    s = await serveBuilt(dir);
    browser = await launchChromium(viewport);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    get url() {
      return s.url;
    },
    get site() {
      return s.site;
    },
    get context() {
      return browser.context;
    },
  };
}

export interface Visit {
  errors: string[];
  links: string[];
  ids: string[];
}

/** Opens a page, recording console errors, failed loads, links and element ids. */
export async function visit(page: Page, base: string, path: string): Promise<Visit> {
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

let axeSource: Promise<string> | null = null;

/** Loads axe-core into the page as it is, through the DevTools protocol, which the page's CSP does not govern. */
export async function injectAxe(page: Page): Promise<void> {
  axeSource ??= readFile('node_modules/axe-core/axe.min.js', 'utf8');
  await page.evaluate(await axeSource);
}

/** The ids of the serious and critical axe-core violations on the page as it is. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(ctx: Document, options: object): Promise<{ violations: { id: string; impact: string }[] }> } }
    ).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id);
  });
}
