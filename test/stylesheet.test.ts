// The stylesheet is written as CSS (build/core/pages/style.css) and reaches
// the core as a generated module (style.ts): the committed module must be
// the CSS, byte for byte, and the site serves exactly the CSS.
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { STYLESHEET } from '../build/core/pages/style.js';
import { CSS_PATH, MODULE_PATH, stylesheetModule } from '../scripts/stylesheet.js';
import { serveBuilt } from './helpers/site.js';

/** The string a generated module exports, by running it. */
async function exported(module: string): Promise<string> {
  const { code } = await transform(module, { loader: 'ts', format: 'esm' });
  return ((await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { STYLESHEET: string }).STYLESHEET;
}

describe('the stylesheet', () => {
  const css = readFileSync(CSS_PATH, 'utf8');

  it('is generated from style.css (run `npm run compile` after editing the CSS)', () => {
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(stylesheetModule(css));
    expect(STYLESHEET).toBe(css);
  });

  it('keeps backticks, backslashes and ${ of the CSS as they are', async () => {
    const tricky = '.a::before { content: "`\\201C ${x}`"; }\n/* \\ */\n';
    expect(await exported(stylesheetModule(tricky))).toBe(tricky);
    expect(await exported(stylesheetModule(css))).toBe(css);
  });

  it('is served at /assets/site.css with the bytes of style.css', { timeout: 60_000 }, async () => {
    const site = await serveBuilt();
    try {
      const res = await fetch(site.at('/assets/site.css'));
      expect(res.headers.get('content-type')).toMatch(/^text\/css/);
      expect(await res.text()).toBe(css);
    } finally {
      await site.close();
    }
  });
});
