// The collections a large build asks for between its phases (emit/gc.ts):
// a major one must be a full collection on every Node we support, which
// gc({ type: 'major' }) is not on Node 20.
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../build/emit/gc.js';

/** The kinds of the collections from `run` on, in order (perf_hooks reports each one after it ends). */
async function kindsOf(run: () => void): Promise<number[]> {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) kinds.push(entry.detail?.kind ?? -1);
  });
  observer.observe({ entryTypes: ['gc'] });
  run();
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return kinds;
}

describe('collectGarbage', () => {
  // The first collection is the one asked for: V8 may start others of its own after it.
  it('collects in full when asked for a major collection', async () => {
    expect((await kindsOf(() => collectGarbage()))[0]).toBe(constants.NODE_PERFORMANCE_GC_MAJOR);
  });

  it('empties only the young generation when asked for a minor one', async () => {
    expect((await kindsOf(() => collectGarbage('minor')))[0]).toBe(constants.NODE_PERFORMANCE_GC_MINOR);
  });
});
