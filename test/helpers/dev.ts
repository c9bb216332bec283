// A folio dev session for tests, in process: its log kept, quick to batch,
// and a wait for its next rebuild that fails with what it printed.
import { startDev, type DevSession, type RebuildReport } from '../../build/dev.js';
import { NOW } from './site.js';

export interface TestDev {
  dev: DevSession;
  /** Every line folio dev printed. */
  lines: string[];
  /** The next rebuild the watcher starts; after `ms` without one, an error that carries what folio dev printed. */
  nextRebuild(ms?: number): Promise<RebuildReport>;
}

export async function startTestDev(content: string, out: string, cache: string): Promise<TestDev> {
  const lines: string[] = [];
  const dev = await startDev({
    content,
    out,
    now: NOW,
    cache,
    port: 0,
    host: '127.0.0.1',
    log: (l) => lines.push(l),
    debounceMs: 60,
    // Requests that keep coming (the tests' pollers) hold a rebuild's artifacts back until this limit.
    maxGraceMs: 300,
  });
  const nextRebuild = (ms = 120_000) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no rebuild within ${ms / 1000} s; folio dev printed:\n${lines.join('\n')}`)), ms);
    });
    return Promise.race([dev.nextRebuild(), timeout]).finally(() => clearTimeout(timer));
  };
  return { dev, lines, nextRebuild };
}
