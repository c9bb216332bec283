// The functions as a host bundles them (esbuild, one ESM script, workerd's
// conditions, not minified: wrangler's default), checked for what costs
// every cold start whether or not it runs.
import { build as esbuild } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain JavaScript module of the benchmark
import { FUNCTIONS, PAGES_ESBUILD } from '../bench/edge.js';

async function bundle(entry: string): Promise<string> {
  const result = await esbuild({ ...PAGES_ESBUILD, entryPoints: [entry], write: false, logLevel: 'silent' });
  return result.outputFiles![0]!.text;
}

/** The modules a function's bundle holds, as paths from the repository's root. */
async function modules(entry: string): Promise<string[]> {
  const result = await esbuild({ ...PAGES_ESBUILD, entryPoints: [entry], write: false, metafile: true, logLevel: 'silent' });
  return Object.keys(result.metafile!.inputs);
}

describe('the functions bundle', () => {
  it.each(FUNCTIONS as string[])('%s holds no regular expression literal with a Unicode property escape', async (entry: string) => {
    const text = await bundle(entry);
    // V8 builds a \p{…} class when it parses the literal, and it parses every literal when the script
    // loads: about 0.2 ms each on every cold start. core/unicode.ts makes them on first use instead.
    // A \p{…} written in a string is "\\p{…}" in the bundle; in a literal, a single backslash.
    const literals = [...text.matchAll(/(?<!\\)\\[pP]\{[^}]*\}/g)].map((m) => text.slice(Math.max(0, m.index - 40), m.index + 20));
    expect(literals).toEqual([]);
    expect(text).toContain('\\\\p{L}');
  });

  it.each(FUNCTIONS as string[])(
    '%s holds no code of the documents or the pages, which the functions never ask (D55)',
    async (entry: string) => {
      // Their every answer is a precomputed file; bundled, the host would parse 135 KB more of them on every
      // cold start. The 404's header set is the one module of the pages the functions answer with.
      const held = await modules(entry);
      expect(held.filter((m) => /^build\/core\/(documents|pages)\//.test(m))).toEqual(['build/core/pages/headers.ts']);
      expect(held).toContain('build/core/api/index.ts');
    },
  );
});
