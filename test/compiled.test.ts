// The global setup recompiles lib/ whenever build/ is newer, so no test runs
// stale CLI or worker code; and the bundles hold one js-yaml, the 4 folio
// parses front-matter with, not gray-matter's own 3 as well.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { libIsStale, OUTPUTS } from './global-setup.js';

/** The source files a bundle was made from, by its source map. */
const sourcesOf = (bundle: string) => (JSON.parse(readFileSync(`lib/${bundle}.js.map`, 'utf8')) as { sources: string[] }).sources;

describe('lib/', () => {
  it('is at least as new as build/ and the compile script when the tests run', () => {
    expect(libIsStale()).toBe(false);
  });

  it('is judged stale by every bundle the compile script writes', () => {
    const entries = /entryPoints: \{([^}]*)\}/.exec(readFileSync('scripts/compile.js', 'utf8'))![1]!;
    const names = [...entries.matchAll(/'?([\w-]+)'?:\s*'build\//g)].map((m) => `lib/${m[1]}.js`);
    expect(names.length).toBeGreaterThan(3);
    expect([...OUTPUTS].sort()).toEqual(names.sort());
  });

  it('bundles gray-matter with the js-yaml folio uses, once', () => {
    for (const bundle of ['cli', 'render-worker']) {
      const yaml = sourcesOf(bundle).filter((s) => /\/js-yaml\//.test(s));
      expect(yaml.length, bundle).toBeGreaterThan(0);
      expect(
        yaml.filter((s) => s.includes('/gray-matter/')),
        bundle,
      ).toEqual([]);
      expect(new Set(yaml.map((s) => s.replace(/\/js-yaml\/.*/, ''))).size, bundle).toBe(1);
      expect(
        sourcesOf(bundle).some((s) => s.includes('/gray-matter/')),
        bundle,
      ).toBe(true);
    }
  });
});
