// Incremental builds that cannot trust what the previous build left (D40, D56): a dist that is not the
// build the state remembers, or a build state cut short or of no format, is taken for no previous build,
// and the output equals a clean build's.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { incrementalSite, SLOW } from './helpers/incremental.js';

const s = incrementalSite('folio-incremental-untrusted-');

describe('incremental builds', () => {
  it('does not reuse a dist that is not the build it remembers', SLOW, async () => {
    const manifest = join(s.out, '_folio/manifest.json');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"version": 1', '"version": 1 '));
    const r = await s.incremental();
    expect(r.stats.full).toBe('no previous build');
    await s.expectSameAsClean();
  });

  it('takes a build state it cannot read, cut short or of no format, for no previous build', SLOW, async () => {
    await s.incremental();
    const [name] = (await readdir(s.cache)).filter((n) => n.startsWith('state-'));
    const state = join(s.cache, name!);
    const bytes = await readFile(state);
    for (const broken of [bytes.subarray(0, bytes.byteLength >> 1), Buffer.from('not a build state')]) {
      await writeFile(state, broken);
      const r = await s.incremental();
      expect(r.stats.full).toBe('no previous build');
      await s.expectSameAsClean();
    }
  });
});
