// The modules behind /mcp (D38): core code only, bundled from
// build/core/mcp/index.ts with esbuild, with no build-only dependency and no
// MCP SDK at run time (its types only).
import { build as esbuild } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the code behind /mcp (D38)', () => {
  it('is core code only: no build-only dependency, and no SDK at run time (its types only)', async () => {
    const result = await esbuild({
      entryPoints: ['build/core/mcp/index.ts'],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      packages: 'external',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((p) => !p.startsWith('build/core/'))).toEqual([]);
    expect(Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path))).toEqual([]);
  });
});
