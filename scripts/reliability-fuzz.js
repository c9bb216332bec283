// The fuzzing part of `npm run reliability` (scripts/reliability.js): runs the
// fuzz and fault tests of `npm test` at `scale` times their bounded counts
// and collects what each fuzzer tried (FOLIO_FUZZ_REPORT) and the tests'
// outcome.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MiB = 1024 * 1024;

/** `root` is the checkout, `work` a scratch folder; `cloudflare` false leaves out the fuzzer that needs wrangler. */
export function fuzz({ root, work, scale, cloudflare, log }) {
  const figuresFile = join(work, 'fuzz.jsonl');
  const files = [
    'test/fuzz-requests.test.ts',
    'test/fuzz-mcp.test.ts',
    'test/mcp-http.test.ts',
    'test/content-fuzz.test.ts',
    'test/content-fuzz-cli.test.ts',
    'test/image-fuzz.test.ts',
    'test/incremental-fuzz.test.ts',
    'test/killed-build.test.ts',
    'test/killed-incremental.test.ts',
    'test/output-unwritable.test.ts',
    'test/output-refused.test.ts',
    'test/faults-search.test.ts',
  ];
  if (cloudflare) files.push('test/fuzz-cloudflare.test.ts');
  log(`fuzz and fault tests at ${scale}× the npm test counts: ${files.join(' ')}`);
  const json = join(work, 'vitest.json');
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      ...files,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${json}`,
      '--testTimeout=900000',
      '--hookTimeout=300000',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, FOLIO_FUZZ_SCALE: String(scale), FOLIO_FUZZ_REPORT: figuresFile, NO_COLOR: '1' },
      maxBuffer: 256 * MiB,
    },
  );
  // The run's own log, with any counterexample and its seed.
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  const figures = existsSync(figuresFile)
    ? readFileSync(figuresFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  let tests = { passed: 0, failed: 0, skipped: 0, failures: [] };
  if (existsSync(json)) {
    const report = JSON.parse(readFileSync(json, 'utf8'));
    tests = {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + (report.numTodoTests ?? 0),
      failures: report.testResults.flatMap((f) =>
        f.assertionResults
          .filter((a) => a.status === 'failed')
          .map(
            (a) =>
              `${f.name.replace(`${root}/`, '')} › ${a.fullName}: ${(a.failureMessages[0] ?? '').split('\n').slice(0, 4).join(' ').slice(0, 600)}`,
          ),
      ),
    };
  }
  if (run.status !== 0 && tests.failed === 0)
    tests.failures.push(`vitest exited ${run.status}: ${(run.stderr || run.stdout).slice(-2000)}`);
  return { figures, tests, files };
}
