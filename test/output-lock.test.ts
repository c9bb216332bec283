// One writer per output directory: while folio dev rebuilds dist/ in place,
// a folio build swapped in under it, or a second folio dev on it, left it a
// mix of both, which the dev server then answered with errors. Both are
// refused, with the process named, until it stops; a lock left by a process
// that was killed is taken over. The CLI runs in processes of its own.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputLockPath } from '../build/emit/output-lock.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';

const SLOW = { timeout: 240_000 };

let work: string;
let content: string;

beforeAll(async () => {
  work = await tempDir('folio-output-lock-');
  content = await copyContent();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

const folio = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/folio.js', ...args, '--now', NOW.toISOString()], { encoding: 'utf8', timeout: 120_000 });

describe('one writer per output directory', () => {
  it('refuses folio build and a second folio dev on the output a folio dev writes, and takes it once it stops', SLOW, async () => {
    const out = join(work, 'dist');
    const child = spawn(
      process.execPath,
      ['bin/folio.js', 'dev', '--content', content, '--out', out, '--port', '0', '--now', NOW.toISOString()],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    const exited = new Promise((done) => child.on('exit', done));
    try {
      for (let i = 0; i < 2400 && !text.includes('serving at'); i++) await new Promise((ok) => setTimeout(ok, 50));
      expect(text).toContain('serving at');
      const served = await treeHash(out);

      const built = folio('build', '--content', content, '--out', out);
      expect(built.status, built.stderr).toBe(1);
      expect(built.stderr).toContain(`folio dev (process ${child.pid}) is writing it`);
      expect(built.stderr).toContain('Stop that process first');
      const second = folio('dev', '--content', content, '--out', out, '--port', '0');
      expect(second.status, second.stderr).toBe(1);
      expect(second.stderr).toContain(`folio dev (process ${child.pid}) is writing it`);
      // Neither wrote anything.
      expect(await treeHash(out)).toEqual(served);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
    expect(existsSync(outputLockPath(out))).toBe(false);
    const built = folio('build', '--content', content, '--out', out);
    expect(built.status, built.stderr).toBe(0);
  });

  it('takes over the lock of a process that is gone', SLOW, async () => {
    const out = join(work, 'after-a-kill', 'dist');
    await mkdir(join(out, '..'), { recursive: true });
    // A process number no process has: the lock a killed folio dev left.
    await writeFile(outputLockPath(out), JSON.stringify({ pid: 2 ** 22 + 1, command: 'folio dev' }));
    const built = folio('build', '--content', content, '--out', out, '--no-cache');
    expect(built.status, built.stderr).toBe(0);
    expect(existsSync(outputLockPath(out))).toBe(false);
    const clean = join(work, 'clean');
    await cleanBuild({ content, out: clean, now: NOW });
    expect(await treeHash(out)).toEqual(await treeHash(clean));
  });
});
