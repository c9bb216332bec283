// The build clock as responses read it. Every read goes through here and
// says what it shows: the year (every page's footer), the day (availability,
// the sitemap's dates) or the time itself (the Atom feed of a site without
// posts). A build watches each response it makes, records which read the day
// or the time, and the next build asks only for those again when the clock
// has moved that far (emit/incremental.ts); test/clock.test.ts checks that
// nothing in core reads `built_at` but this file.
import type { Site } from './model.js';

export type ClockPart = 'year' | 'day' | 'time';

let watching: Set<ClockPart> | null = null;

function read(part: ClockPart, value: string): string {
  watching?.add(part);
  return value;
}

export const clockYear = (site: Pick<Site, 'built_at'>) => read('year', site.built_at.slice(0, 4));
/** YYYY-MM: a new month is a new day. */
export const clockMonth = (site: Pick<Site, 'built_at'>) => read('day', site.built_at.slice(0, 7));
export const clockDay = (site: Pick<Site, 'built_at'>) => read('day', site.built_at.slice(0, 10));
export const clockTime = (site: Pick<Site, 'built_at'>) => read('time', site.built_at);

type Read = 'day' | 'time' | null;

/**
 * Starts a watch inside any already running; the function it returns stops
 * it (again: nothing more), passes its reads on outwards, and says the part
 * that moves soonest: the time, the day, or (null) at most the year.
 */
function watch(): () => Read {
  const outer = watching;
  const mine = new Set<ClockPart>();
  watching = mine;
  return () => {
    watching = outer;
    for (const part of mine) outer?.add(part);
    return mine.has('time') ? 'time' : mine.has('day') ? 'day' : null;
  };
}

/** What `make` made, and the part of the clock it read that moves soonest. */
export function watchClock<T>(make: () => T): { value: T; read: Read } {
  const end = watch();
  try {
    const value = make();
    return { value, read: end() };
  } finally {
    end();
  }
}

/**
 * watchClock for an answer made asynchronously. The build makes one response
 * at a time; anything else read meanwhile (a request folio dev serves) is
 * counted too, which can only ask for a response again that need not be.
 */
export async function watchClockAsync<T>(make: () => Promise<T>): Promise<{ value: T; read: Read }> {
  const end = watch();
  try {
    const value = await make();
    return { value, read: end() };
  } finally {
    end();
  }
}

/** Counts, for the response being made, what another one it reuses (a page's twin, its size) read of the clock. */
export function replayClock(part: Read | undefined): void {
  if (part) watching?.add(part);
}
