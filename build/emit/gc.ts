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
 * were still on the heap when the next phase (the artifacts) allocated: a
 * cold build of 10,000 posts peaked at 1.0 GB with scavenges only, and at
 * 0.8 GB with these, under the 1 GB we allow it. A minor one empties only
 * the young generation (folio dev, between rebuilds).
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
  // Node 20's V8 takes gc({ type: 'major' }) for a scavenge, which leaves the
  // old generation as it is; called with no options it collects in full.
  if (type === 'minor') fullGc?.({ type });
  else fullGc?.();
}
