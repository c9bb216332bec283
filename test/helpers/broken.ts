// Bad content through the real CLI (D2, D40): a good build of the sample,
// then builds of edited copies over it, each of which must exit 1 with no
// stack trace and leave the previous dist/ byte-identical.
//
// Every copy is made at the same path as the good build's content, so the
// build cache (which keys a document by its path and its text) already holds
// every file the edit did not touch, as an author's CI cache would.
import { cp, readdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { folio, type CliResult } from './cli.js';
import { tempDir, treeHash } from './site.js';

export const BUILD_CLOCK = '2026-11-22';

export interface Broken extends CliResult {
  /** The edited content folder as the CLI names it (relative to the working directory). */
  rel: string;
  /** What `folio check` printed on stderr for the same content, when asked for. */
  check?: string;
}

export interface BrokenSample {
  /**
   * A fresh copy of the sample with `edit` applied, built over the good dist:
   * exit 1, no stack trace, the dist unchanged. With `check`, folio check
   * must fail on it too (reading the cache the build wrote, never writing).
   */
  breakWith(edit: (dir: string) => Promise<void>, options?: { check?: boolean }): Promise<Broken>;
  close(): Promise<void>;
}

export async function brokenSample(): Promise<BrokenSample> {
  const work = await tempDir('folio-broken-');
  const content = join(work, 'content');
  const out = join(work, 'dist');
  await cp('content', content, { recursive: true });
  const ok = await folio('build', '--content', content, '--out', out, '--now', BUILD_CLOCK);
  expect(ok.code, ok.stderr).toBe(0);
  const before = await treeHash(out);
  const rel = relative(process.cwd(), content);

  return {
    async breakWith(edit, options = {}) {
      await rm(content, { recursive: true, force: true });
      await cp('content', content, { recursive: true });
      await edit(content);
      const result = await folio('build', '--content', content, '--out', out, '--now', BUILD_CLOCK);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(await treeHash(out)).toEqual(before);
      // The build had begun linking the previous dist into a staging folder (emit/prelink.ts): gone too.
      expect((await readdir(work)).filter((name) => name.startsWith('.dist.'))).toEqual([]);
      if (!options.check) return { ...result, rel };
      const check = await folio('check', '--content', content, '--now', BUILD_CLOCK, '--cache-dir', join(work, '.folio-cache'));
      expect(check.code, check.stderr).toBe(1);
      expect(await treeHash(out)).toEqual(before);
      return { ...result, rel, check: check.stderr };
    },
    close: () => rm(work, { recursive: true, force: true }),
  };
}
