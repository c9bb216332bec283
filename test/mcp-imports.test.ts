// The modules behind /mcp (D38): core code only, bundled from
// build/core/mcp/index.ts with esbuild, with no build-only dependency and no
// MCP SDK at run time (its types only).
import { describe, expect, it } from 'vitest';
import { bundleMeta } from './helpers/bundle.js';

describe('the code behind /mcp (D38)', () => {
  it('is core code only: no build-only dependency, and no SDK at run time (its types only)', async () => {
    const metafile = await bundleMeta('build/core/mcp/index.ts', 'external');
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((p) => !p.startsWith('build/core/'))).toEqual([]);
    expect(Object.values(metafile.outputs).flatMap((o) => o.imports.map((i) => i.path))).toEqual([]);
  });
});
