// Incremental builds for a test file whose tests edit one copy of the sample
// content in turn: one output and one cache that each build reuses, and the
// check every edit ends with, that the output equals a clean build's.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { build, type BuildResult } from '../../build/emit/build.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './site.js';

export const SLOW = { timeout: 300_000 };

export interface IncrementalFixture {
  /** The file's own folder: the output, the cache and the clean builds compared with them. */
  work: string;
  /** The copy of the sample content the tests edit. */
  content: string;
  cache: string;
  out: string;
  /** A build of the content into the output, reusing the cache and the previous output. */
  incremental(now?: Date): Promise<BuildResult>;
  /**
   * The incremental output equals a clean build (no cached records, fresh
   * directory) of the same content. The record of what earlier builds
   * published is an input, not a cache (D61): the clean build is given it too.
   * So do the related lists the last build's state hands to the next one,
   * which an edit takes from the state before it rather than finds.
   */
  expectSameAsClean(now?: Date): Promise<void>;
  /** Rewrites a content file, which the change must change. */
  edit(file: string, change: (text: string) => string): Promise<void>;
  close(): Promise<void>;
}

/** A fresh copy of the sample content, and an output and a cache with nothing in them yet. */
async function openIncremental(prefix: string): Promise<IncrementalFixture> {
  const work = await tempDir(prefix);
  const content = await copyContent();
  const cache = join(work, '.folio-cache');
  const out = join(work, 'dist');
  let cleanRuns = 0;
  let last: BuildResult | null = null;
  return {
    work,
    content,
    cache,
    out,
    incremental: async (now = NOW) => (last = await build({ content, out, now, cache })),
    async expectSameAsClean(now = NOW) {
      const clean = join(work, `clean-${cleanRuns++}`);
      const made = await cleanBuild({ content, out: clean, now }, { cache, out });
      expect(await treeHash(out)).toEqual(await treeHash(clean));
      if (last) expect(last.state.related, 'the related lists the state keeps').toEqual(made.state.related);
      await rm(clean, { recursive: true, force: true });
    },
    async edit(file, change) {
      const path = join(content, file);
      const before = await readFile(path, 'utf8');
      const after = change(before);
      expect(after, `the edit of ${file} changes it`).not.toBe(before);
      await writeFile(path, after);
    },
    async close() {
      await rm(work, { recursive: true, force: true });
      await rm(content, { recursive: true, force: true });
    },
  };
}

/**
 * A site opened before the file's tests and closed after them (openIncremental),
 * its fields set once beforeAll has run; `built`: with the first build made, the
 * previous build the file's first edit is made against.
 */
export function incrementalSite(prefix: string, { built = true } = {}): IncrementalFixture {
  const s = {} as IncrementalFixture;
  beforeAll(async () => {
    Object.assign(s, await openIncremental(prefix));
    if (built) await s.incremental();
  }, SLOW.timeout);
  afterAll(() => s.close?.());
  return s;
}
