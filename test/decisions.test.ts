// D58: every rule id that build/, functions/, test/, docs/ and the README cite is
// defined in docs/decisions.md, so a reader with only the repository can resolve it.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { citedIds, definedIds, readTree, unresolved } from './helpers/rule-ids.js';

const ROOT = new URL('..', import.meta.url).pathname;

describe('docs/decisions.md (D58)', () => {
  it('defines every rule id cited in build/, functions/, test/, docs/ and the README', async () => {
    const defined = definedIds(await readFile(`${ROOT}docs/decisions.md`, 'utf8'));
    const files = await readTree(ROOT, ['build', 'functions', 'test', 'docs']);
    files['README.md'] = await readFile(`${ROOT}README.md`, 'utf8');
    expect(Object.keys(files).length).toBeGreaterThan(50);
    // This file and the checker name synthetic ids and spec parts on purpose.
    delete files['test/decisions.test.ts'];
    delete files['test/helpers/rule-ids.ts'];
    expect(unresolved(files, defined)).toEqual([]);
  });

  it('defines D1 to D61, each once', async () => {
    const text = await readFile(`${ROOT}docs/decisions.md`, 'utf8');
    const ids = [...text.matchAll(/^- \*\*D(\d+)\./gm)].map((m) => Number(m[1]));
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
  });

  it('fails on a citation of an undefined id or of a spec part', () => {
    const defined = definedIds('- **D1. One.** x\n- **D38. One core.** y\n');
    expect([...defined]).toEqual([1, 38]);
    expect(citedIds('see D4–D18 and (D38)')).toEqual([4, 18, 38]);
    const files = {
      'build/a.ts': '// One core (D38).\nconst x = 1; // D99 is not defined\n',
      'docs/b.md': 'As Part 1 §7 says (D1).\n',
      'test/c.ts': 'ADD1 and D1x and MD5 are not citations\n',
    };
    expect(unresolved(files, defined)).toEqual([
      { file: 'build/a.ts', line: 2, text: 'D99' },
      { file: 'docs/b.md', line: 1, text: 'Part 1' },
    ]);
    expect(unresolved({ 'build/a.ts': files['build/a.ts'] }, new Set([1, 38, 99]))).toEqual([]);
  });
});
