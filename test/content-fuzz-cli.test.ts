// Content fuzzing through the real CLI (D2, D40): random corruptions of a
// small valid site (test/helpers/corruptions.ts), built over a previous dist.
// Each build exits 1 with every problem as path:line:column and a hint and no
// stack trace, and leaves the previous dist byte-identical. FOLIO_FUZZ_SEED
// replays a failing seed.
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyOrder, corruptionArb, standing } from './helpers/corruptions.js';
import { fuzzBudget, fuzzRuns, fuzzSeed, recordFigures } from './helpers/fuzz.js';
import { baseTree, buildCli, stderrViolations, writeTree, type Tree } from './helpers/fuzz-site.js';
import { treeHash } from './helpers/site.js';
import { workspace } from './helpers/workspace.js';

const ws = workspace('folio-content-fuzz-');
let base: Tree;

beforeAll(async () => {
  base = await baseTree();
});

describe('random corruptions through the real CLI, over a previous dist (D2, D40)', () => {
  let out: string;
  let before: Record<string, string>;

  beforeAll(async () => {
    await writeTree(join(ws.cwd, 'good'), base);
    out = join(ws.cwd, 'dist');
    const ok = await buildCli(join(ws.cwd, 'good'), out);
    expect(ok.code, ok.stderr).toBe(0);
    before = await treeHash(out);
  });

  it(
    'exit 1, every problem as path:line:column with a hint, no stack trace, the previous dist byte-identical',
    { timeout: fuzzBudget(120_000) },
    async () => {
      const seed = fuzzSeed();
      const runs = fuzzRuns(3);
      const samples = fc.sample(
        fc
          .uniqueArray(corruptionArb(Object.keys(base)), { minLength: 2, maxLength: 4, selector: (c) => c.name })
          .filter((cs) => standing(cs, base).some((c) => c.error)),
        { seed, numRuns: runs },
      );
      let failures = 0;
      const started = performance.now();
      for (const [i, corruptions] of samples.entries()) {
        const tree: Tree = { ...base };
        for (const c of applyOrder(corruptions)) c.apply(tree);
        const dir = join(ws.cwd, `case-${i}`);
        await writeTree(dir, tree);
        const result = await buildCli(dir, out);
        const what = `${corruptions.map((c) => c.name).join(' + ')} (seed ${seed})`;
        const bad = [...(result.code === 1 ? [] : [`exit ${result.code}`]), ...stderrViolations(result.stderr)];
        if (bad.length) failures++;
        expect(bad, `${what}\n${result.stderr}`).toEqual([]);
        expect(await treeHash(out), what).toEqual(before);
      }
      recordFigures({
        name: 'content: corruptions (CLI)',
        target: 'folio build over a previous dist',
        inputs: samples.length,
        requests: 0,
        failures,
        seed,
        ms: Math.round(performance.now() - started),
      });
    },
  );

  it(
    'a huge file nested 200,000 deep, and a 4 MB binary: reported, exit 1, the previous dist byte-identical',
    { timeout: fuzzBudget(120_000) },
    async () => {
      const dir = join(ws.cwd, 'huge');
      await cp(join(ws.cwd, 'good'), dir, { recursive: true });
      const deep = `---\ntitle: Deep\ndate: 2025-01-01\n---\n\n${'> '.repeat(200_000)}deep\n`;
      await writeFile(join(dir, 'posts', 'deep.md'), deep);
      await writeFile(join(dir, 'posts', 'blob.md'), Buffer.alloc(4 * 1024 * 1024, 0x00));
      const result = await buildCli(dir, out);
      expect(result.code, result.stderr).toBe(1);
      expect(stderrViolations(result.stderr), result.stderr).toEqual([]);
      expect(result.stderr).toMatch(/posts\/deep\.md:\d+:\d+: /);
      expect(result.stderr).toMatch(/posts\/blob\.md:1:1: .*binary/);
      expect(await treeHash(out)).toEqual(before);
    },
  );
});
