// Tests that spawn the CLI need lib/cli.js to match build/ as it is now.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/compile.js'], { stdio: 'inherit' });
}
