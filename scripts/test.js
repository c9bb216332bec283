// npm test: the static checks (the type check, ESLint, Prettier) and vitest
// at once. The suite leaves some of the two cores idle while it waits on
// servers and browsers, and the checks fill it: a clean clone's checks (no
// ESLint or Prettier cache yet) took 11.5 s before the suite and add a few
// seconds beside it. Each check's output is printed whole once the suite is
// done, under its name, so nothing interleaves with vitest's; the exit code
// is the first failure's.
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'format:check'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const windows = process.platform === 'win32';

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: windows });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ script, code: code ?? 1, output }));
  });

/** vitest with the arguments npm test was given (`npm test -- test/api-posts.test.ts`), its output as it comes. */
const vitest = () =>
  new Promise((resolve) => {
    const child = spawn(npm, ['exec', '--', 'vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', shell: windows });
    child.on('close', (code) => resolve(code ?? 1));
  });

const [suite, ...results] = await Promise.all([vitest(), ...CHECKS.map(run)]);
for (const { script, code, output } of results) {
  process.stdout.write(`${code === 0 ? '✓' : '✗'} npm run ${script}\n${code === 0 ? '' : output}`);
}
process.exitCode = suite || (results.find((r) => r.code !== 0)?.code ?? 0);
