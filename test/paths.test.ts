// Where a path lies against a folder (build/content/paths.ts): by segments,
// as the output guard (--out), static links and image paths ask it.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { below, within } from '../build/content/paths.js';

describe('within and below', () => {
  const dir = resolve('/site/content/static');
  it('take the folder itself and anything under it, by segment', () => {
    expect([within(dir, dir), below(dir, dir)]).toEqual([true, false]);
    expect([within(dir, join(dir, 'a/b.txt')), below(dir, join(dir, 'a/b.txt'))]).toEqual([true, true]);
    // A folder named like a parent reference is still inside.
    expect(below(dir, join(dir, '..x/file'))).toBe(true);
  });

  it('refuse a parent, a sibling that shares a prefix, and another root', () => {
    for (const path of [resolve(dir, '..'), resolve('/site/content/static-old/a'), resolve('/etc/passwd')]) {
      expect(within(dir, path), path).toBe(false);
      expect(below(dir, path), path).toBe(false);
    }
  });
});
