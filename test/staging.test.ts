// The staging directory's reuse of the previous output's files (emit/atomic.ts,
// staging-writers.ts): links go to the writing threads in batches, and the
// caller waits only when it must. A link that fails stops the build with an
// OutputError naming the output, whether it surfaces at the next reuse (thrown
// at once, not as a promise) or at the commit, and leaves nothing behind.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStaging } from '../build/emit/atomic.js';
import { OutputError } from '../build/emit/output-error.js';
import { tempDir } from './helpers/site.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('reusing the previous output', () => {
  it('waits on no promise while links fit in a batch, and stops with an OutputError when a link fails', async () => {
    const parent = await tempDir('folio-staging-');
    dirs.push(parent);
    const out = join(parent, 'dist');
    const staging = await openStaging(out);
    // The previous output has none of these files: each link fails on its writing thread.
    let waited = 0;
    let failed: unknown = null;
    const started = performance.now();
    for (let i = 0; i < 4 * 2048 + 1 && !failed && performance.now() - started < 20_000; i++) {
      try {
        const waiting = staging.reuse(`missing-${i}.html`);
        if (waiting) {
          waited++;
          await waiting;
        }
      } catch (error) {
        failed = error;
      }
      // Let the threads answer between batches.
      if (i % 2048 === 2047) await new Promise((ok) => setTimeout(ok, 50));
    }
    expect(waited).toBeLessThan(4);
    failed ??= await staging.commit().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(OutputError);
    expect((failed as Error).message).toContain(`cannot write the output directory ${out}`);
    // Once a link failed, the next reuse throws at once.
    expect(() => staging.reuse('another.html')).toThrow(OutputError);
    await staging.abort();
    expect(await readdir(parent)).toEqual([]);
  });
});
