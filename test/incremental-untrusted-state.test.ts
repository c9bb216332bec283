// Incremental builds that cannot trust what the previous build left (D40, D56): a dist that is not the
// build the state remembers, or a build state cut short or of no format, is taken for no previous build,
// and the output equals a clean build's.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIncremental, SLOW, type IncrementalFixture } from './helpers/incremental.js';

let site: IncrementalFixture;
let cache: string;
let out: string;
let incremental: IncrementalFixture['incremental'];
let expectSameAsClean: IncrementalFixture['expectSameAsClean'];

beforeAll(async () => {
  site = await openIncremental('folio-incremental-untrusted-');
  ({ cache, out, incremental, expectSameAsClean } = site);
  // The previous build, and its state, that the tests break.
  await incremental();
}, SLOW.timeout);
afterAll(() => site?.close());

describe('incremental builds', () => {
  it('does not reuse a dist that is not the build it remembers', SLOW, async () => {
    const manifest = join(out, '_folio/manifest.json');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"version": 1', '"version": 1 '));
    const r = await incremental();
    expect(r.stats.full).toBe('no previous build');
    await expectSameAsClean();
  });

  it('takes a build state it cannot read, cut short or of no format, for no previous build', SLOW, async () => {
    await incremental();
    const [name] = (await readdir(cache)).filter((n) => n.startsWith('state-'));
    const state = join(cache, name!);
    const bytes = await readFile(state);
    for (const broken of [bytes.subarray(0, bytes.byteLength >> 1), Buffer.from('not a build state')]) {
      await writeFile(state, broken);
      const r = await incremental();
      expect(r.stats.full).toBe('no previous build');
      await expectSameAsClean();
    }
  });
});
