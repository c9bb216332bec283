// npm test's static checks (the type check, ESLint, Prettier) run at once:
// each is mostly one process on one core, and they share no files they write.
// Each one's output is printed whole when it ends, under its name, so that
// the three never interleave; the exit code is the first failure's.
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'format:check'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ script, code: code ?? 1, output }));
  });

const results = await Promise.all(CHECKS.map(run));
for (const { script, code, output } of results) {
  process.stdout.write(`${code === 0 ? '✓' : '✗'} npm run ${script}\n${code === 0 ? '' : output}`);
}
process.exitCode = results.find((r) => r.code !== 0)?.code ?? 0;
