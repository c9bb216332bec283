// The global setup recompiles lib/ whenever build/ is newer, so no test runs
// stale CLI or worker code.
import { describe, expect, it } from 'vitest';
import { libIsStale } from './global-setup.js';

describe('lib/', () => {
  it('is at least as new as build/ and the compile script when the tests run', () => {
    expect(libIsStale()).toBe(false);
  });
});
