// Saving folio dev's cache and build state, so the next `folio dev` or
// `folio build` starts warm. They are saved once no rebuild has run for a
// while (serializing them at 10,000 posts takes the thread for a moment),
// and never while a rebuild changes the output: a rebuild waits for a save.
import { saveState } from '../emit/cache.js';
import type { DevContext, DevState } from './state.js';

/** Quiet time after the last rebuild before the cache and the build state are saved. */
export const SAVE_DELAY_MS = 2000;

export interface Saver {
  /** Saves after SAVE_DELAY_MS, unless asked again before. */
  schedule(): void;
  /** Cancels a save that has not begun, and waits for one that has: a rebuild may then change the output. */
  hold(): Promise<void>;
  /** Saves now (when the session ends). */
  flush(): Promise<void>;
}

export function saver(ctx: DevContext, state: DevState, delayMs = SAVE_DELAY_MS): Saver {
  let timer: NodeJS.Timeout | null = null;
  let saving: Promise<void> | null = null;
  const persist = async () => {
    if (!ctx.cacheDir) return;
    await ctx.records?.save();
    if (state.build && !state.stateSaved && state.problems.length === 0) {
      await saveState(ctx.cacheDir, ctx.out, state.build);
      state.stateSaved = true;
    }
  };
  const hold = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (saving) await saving;
  };
  return {
    schedule() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        saving = persist().finally(() => (saving = null));
      }, delayMs);
    },
    hold,
    async flush() {
      await hold();
      await persist();
    },
  };
}
