// Tests that spawn the CLI need lib/cli.js to match build/ as it is now.
// FOLIO_SKIP_COMPILE=1 skips it when iterating on tests that do not spawn the CLI.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  if (process.env.FOLIO_SKIP_COMPILE === '1') return;
  execFileSync(process.execPath, ['scripts/compile.js'], { stdio: 'inherit' });
}
