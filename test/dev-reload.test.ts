// folio dev's live reload (D1): the reload script and the policy that allows
// it exist only in the dev server's responses, never in a file of the output;
// every open page is told to reload when its bytes change or the content
// builds again after a problem, and a real browser reloads with no CSP violation.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devPolicy, withLiveReload } from '../build/dev.js';
import { collectEvents, devTraces, devSession, POST, SLOW } from './helpers/dev-session.js';
import { HAS_CHROMIUM, launchChromium } from './helpers/browser.js';

const s = devSession('folio-dev-reload-');

describe('folio dev', () => {
  it('serves the build with the reload script and a policy that allows only it', async () => {
    const response = await fetch(`${s.dev.url}/blog/${POST}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<script src="/_folio/dev/reload.js" defer></script>');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("default-src 'none'");
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1]!.replaceAll('&#39;', "'");
    expect(meta).toContain("default-src 'none'; ");
    expect(meta).toContain("; connect-src 'self'");
    expect(meta).toMatch(/; script-src 'self'$/);
    const script = await fetch(`${s.dev.url}/_folio/dev/reload.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('EventSource');
    // Everything else passes through untouched: JSON, twins.
    const api = await fetch(`${s.dev.url}/api/v1/posts/${POST}`);
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await api.text()).not.toContain('_folio/dev');
    expect(await devTraces(s.out)).toEqual([]);
  });

  it('widens an existing script-src instead of adding a second one', () => {
    expect(devPolicy("default-src 'none'; script-src https://example.com")).toBe(
      "default-src 'none'; script-src https://example.com 'self'; connect-src 'self'",
    );
    expect(withLiveReload('<p>no body tag</p>')).toContain('reload.js');
  });

  it('tells every open page to reload when the content builds again, even when the fix brings back the last good bytes', SLOW, async () => {
    const file = join(s.content, 'posts', `${POST}.md`);
    const good = await readFile(file, 'utf8');
    const html = { headers: { accept: 'text/html' } };
    const stream = await collectEvents(`${s.dev.url}/_folio/dev/events`, 'change');
    /** Waits until the watcher has caught up and no late event can come, and returns how many events came. */
    const settled = async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await s.dev.idle();
      return stream.events.length;
    };
    /** Breaks the post's YAML front matter: every page shows the problem list. */
    const breakIt = async () => {
      const broken = s.nextRebuild();
      await writeFile(file, good.replace(/^title: (.*)$/m, 'title: [$1'));
      expect((await broken).ok).toBe(false);
      await expect.poll(() => stream.events.at(-1)).toEqual({ all: true, targets: [] });
      expect((await fetch(`${s.dev.url}/about`, html)).status).toBe(500);
      return settled();
    };
    try {
      await settled();
      // Restored exactly: no output file changes, but every open page shows the problem list.
      const before = await breakIt();
      const restored = s.nextRebuild();
      await writeFile(file, good);
      const r = await restored;
      expect(r.ok, s.lines.join('\n')).toBe(true);
      expect(r.targets).toEqual([]);
      await expect.poll(() => stream.events.length).toBeGreaterThan(before);
      expect(stream.events.slice(before)).toEqual([{ all: true, targets: [] }]);
      expect((await fetch(`${s.dev.url}/about`, html)).status).toBe(200);

      // Fixed differently: the post's own pages changed, but a page open at /about showed the problem list too.
      const again = await breakIt();
      const fixed = s.nextRebuild();
      await writeFile(file, `${good}\nA paragraph added with the fix.\n`);
      const f = await fixed;
      expect(f.ok, s.lines.join('\n')).toBe(true);
      expect(f.targets).not.toContain('/about');
      await expect.poll(() => stream.events.length).toBeGreaterThan(again);
      expect(stream.events.at(-1)).toEqual({ all: true, targets: [] });
    } finally {
      stream.stop();
      await writeFile(file, good);
      await settled();
    }
  });

  describe.skipIf(!HAS_CHROMIUM)('in a real browser', () => {
    let browser: Awaited<ReturnType<typeof launchChromium>>;
    let context: BrowserContext;
    beforeAll(async () => {
      browser = await launchChromium();
      context = browser.context;
    }, 120_000);
    afterAll(() => browser?.close());

    it('reloads an open page when its content changes, with no CSP violation', SLOW, async () => {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      await page.goto(`${s.dev.url}/blog/${POST}`);
      // The event stream is open before the edit.
      await page.waitForFunction(() => document.documentElement.dataset.folioDev === 'connected');
      const reloaded = page.waitForEvent('load', { timeout: 60_000 });
      await appendFile(join(s.content, 'posts', `${POST}.md`), '\nSeen by the browser after a reload.\n');
      await reloaded;
      await expect.poll(() => page.content()).toContain('Seen by the browser after a reload.');
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});
