// D59 in the browser: a small site (one post without tags, no services, no
// projects) reads well. Every page opens cleanly at phone width, no link on
// any page leads to an empty list or nowhere, and axe finds nothing serious.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSmallSite } from './helpers/small-site.js';
import { HAS_CHROMIUM } from './helpers/browser.js';
import { seriousViolations, siteInBrowser, visit, VIEWPORTS } from './helpers/browser-site.js';

describe.skipIf(!HAS_CHROMIUM)('a small site in a real browser (D59)', () => {
  const s = siteInBrowser(VIEWPORTS.phone, async () => {
    const content = await mkdtemp(join(tmpdir(), 'folio-small-browser-'));
    await writeSmallSite(content, { posts: 1, services: 0, projects: 0 });
    return content;
  });

  it('opens every page cleanly, links nowhere empty and has no serious axe violation', { timeout: 120_000 }, async () => {
    const page = await s.context.newPage();
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
      const serious = await seriousViolations(page);
      problems.push(...serious.map((id) => `${path}: axe ${id}`));
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});
