// Large sites: a full garbage collection between the build's phases keeps
// its peak memory down (a young generation full of a phase's garbage is
// otherwise promoted into the next phase).
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Sites this large get a full garbage collection between phases (see collectGarbage). */
export const LARGE_SITE_POSTS = 2000;
let fullGc: ((options?: { type: string }) => void) | null | undefined;

/**
 * A full garbage collection, at a phase boundary of a large build. V8 lets
 * the old generation grow towards a limit set by the machine's memory
 * (4 GB here) before it collects, so the short-lived pages of one phase
 * were still on the heap when the next phase (the artifacts) allocated:
 * 1.0 GB peak at 10,000 posts. Two collections (about 170 ms) bring it to
 * 0.8 GB, under the 1 GB we allow a 10,000-post build. A minor one
 * empties only the young generation (folio dev, between rebuilds).
 */
export function collectGarbage(type: 'major' | 'minor' = 'major'): void {
  if (fullGc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      fullGc = runInNewContext('gc') as (options?: { type: string }) => void;
    } catch {
      fullGc = null;
    }
  }
  fullGc?.({ type });
}
