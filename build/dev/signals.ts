// How folio dev stops on Ctrl-C and SIGTERM: the first asks the session to
// write the rebuild in progress whole and stop; a second, from someone who
// will not wait, stops at once.
export interface Stoppable {
  close(): Promise<void>;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Resolves once a signal has stopped the session. Stopped at once, the
 * output may hold half a rebuild; the rebuild forgot the cache's state of
 * the output before writing (dev/writer.ts forgetSavedState), so the next
 * build does not trust it and writes it whole.
 */
export function stopOnSignals(session: Stoppable, exit: (code: number) => void = process.exit, log = console.error): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = () => {
      if (!stopping) {
        stopping = true;
        void session.close().then(() => {
          for (const s of SIGNALS) process.off(s, stop);
          resolve();
        });
        return;
      }
      for (const s of SIGNALS) process.off(s, stop);
      log('folio dev: stopped at once; the next folio build or folio dev writes the output whole again.');
      exit(130);
    };
    for (const s of SIGNALS) process.on(s, stop);
  });
}
