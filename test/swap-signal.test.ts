// A signal that comes while a build swaps its staging folder in for the
// output (emit/atomic.ts, D40) waits for the swap: cut between its two
// renames, the output would be missing until the next build. The signal is
// sent at that very point by the file system's own rename, wrapped in a
// process of its own, so the moment is certain rather than raced for.
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build as esbuild } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH } from '../build/core/files.js';
import { tempDir } from './helpers/site.js';

let work: string;
let script: string;

// The rename the staging module imports is node:fs/promises' own, made to
// send SIGINT to its process once the previous output is moved aside.
const SCRIPT = `
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { openStaging } from './build/emit/atomic.ts';
const [out, signal] = process.argv.slice(2);
const rename = fsp.rename;
fsp.rename = async (from, to) => {
  await rename(from, to);
  if (to.endsWith('-old')) process.kill(process.pid, signal);
};
syncBuiltinESMExports();
const staging = await openStaging(out);
await staging.write(${JSON.stringify(MANIFEST_PATH)}, '{"build":"new"}');
await staging.write('index.html', 'new');
await staging.commit();
console.log('committed');
`;

beforeAll(async () => {
  work = await tempDir('folio-swap-signal-');
  script = join(work, 'swap.mjs');
  await esbuild({
    stdin: { contents: SCRIPT, resolveDir: resolve('.'), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outfile: script,
    logLevel: 'silent',
  });
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('a signal during the swap', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    it(`(${signal}) waits for it: the new output is in place, nothing is left beside it, and the process stops with ${code}`, async () => {
      const parent = join(work, signal);
      const out = join(parent, 'dist');
      await mkdir(join(out, '_folio'), { recursive: true });
      await writeFile(join(out, MANIFEST_PATH), '{"build":"old"}');
      await writeFile(join(out, 'index.html'), 'old');
      const child = spawn(process.execPath, [script, out, signal], { stdio: ['ignore', 'pipe', 'pipe'] });
      let said = '';
      child.stdout.on('data', (d: Buffer) => (said += d.toString()));
      child.stderr.on('data', (d: Buffer) => (said += d.toString()));
      const exit = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.on('exit', (c, s) => done([c, s])));
      expect(exit, said).toEqual([code, null]);
      // Stopped as soon as the swap was done, before the build went on.
      expect(said).not.toContain('committed');
      expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('new');
      // The previous output, moved aside, goes in a process of its own.
      for (let i = 0; i < 400 && (await readdir(parent)).length > 1; i++) await new Promise((ok) => setTimeout(ok, 25));
      expect(await readdir(parent)).toEqual(['dist']);
    });
});
