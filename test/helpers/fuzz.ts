// What every fuzzer shares: run counts and time budgets that
// `npm run reliability` scales (FOLIO_FUZZ_SCALE), the seed that replays a
// run (FOLIO_FUZZ_SEED), the report of a failure, and the figures each run
// records for RELIABILITY.md (FOLIO_FUZZ_REPORT).
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';

export interface FuzzFigures {
  name: string;
  target: string;
  /** Inputs fast-check generated and ran (shrinking included). */
  inputs: number;
  /** HTTP requests sent, liveness probes included. */
  requests: number;
  /** Inputs that were not valid HTTP and were refused by the HTTP parser before folio saw them. */
  refused?: number;
  /** Inputs not sent, by the reason the runtime cannot take them. */
  excluded?: Record<string, number>;
  failures: number;
  seed: number;
  ms: number;
  note?: string;
}

/** Scales a test's run count: 1 in npm test, more under `npm run reliability`. */
export function fuzzRuns(base: number): number {
  const scale = Number(process.env.FOLIO_FUZZ_SCALE ?? '1');
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

/** The time budget of one fuzz property, scaled the same way. */
export function fuzzBudget(ms: number): number {
  const scale = Number(process.env.FOLIO_FUZZ_SCALE ?? '1');
  return Math.round(ms * (Number.isFinite(scale) && scale > 1 ? scale : 1));
}

/** What fast-check found, with the error it threw: the message of a failed run's assertion, or "" when it passed. */
export function failureReport<Ts>(details: fc.RunDetails<Ts>): string {
  if (!details.failed) return '';
  return `${fc.defaultReportMessage(details) ?? 'failed'}\n${String((details.errorInstance as Error | undefined)?.message ?? '')}`;
}

/** The seed of a run: FOLIO_FUZZ_SEED replays a failure, otherwise a fresh one. */
export function fuzzSeed(): number {
  const given = process.env.FOLIO_FUZZ_SEED;
  return given ? Number(given) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

/** Appends a run's figures for scripts/reliability.js (FOLIO_FUZZ_REPORT names the file). */
export function recordFigures(figures: FuzzFigures): void {
  const file = process.env.FOLIO_FUZZ_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify(figures)}\n`);
}
