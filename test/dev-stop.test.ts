// Stopping folio dev (D40): Ctrl-C or SIGTERM during a rebuild writes that
// rebuild whole, at once, and says so; asked twice, it stops at once, and
// the next build writes the output whole again. The real CLI runs in its own
// process, so the signals are real.
import { spawn, spawnSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopOnSignals } from '../build/dev/signals.js';
import { build } from '../build/emit/build.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';

const SLOW = { timeout: 240_000 };

let work: string;
let content: string;

beforeAll(async () => {
  work = await tempDir('folio-dev-stop-');
  content = await copyContent();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

interface Session {
  out: string;
  cache: string;
  output(): string;
  signal(name: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** folio dev in a process of its own, once it serves; a poller keeps requesting a page, as open pages do after a change. */
async function session(name: string): Promise<Session & { poller: Promise<void>; stopPolling(): void }> {
  const out = join(work, name, 'dist');
  const args = ['bin/folio.js', 'dev', '--content', content, '--out', out, '--port', '0', '--now', NOW.toISOString()];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  let url = '';
  for (let i = 0; i < 2400 && !url; i++) {
    url = /serving at (http:\/\/[\d.]+:\d+)/.exec(text)?.[1] ?? '';
    await new Promise((ok) => setTimeout(ok, 50));
  }
  if (!url) throw new Error(`folio dev did not start:\n${text}`);
  let polling = true;
  const poller = (async () => {
    for (let i = 0; polling && i < 20_000; i++) {
      await fetch(`${url}/blog`, { signal: AbortSignal.timeout(10_000) })
        .then((r) => r.arrayBuffer())
        .catch(() => undefined);
      await new Promise((ok) => setTimeout(ok, 20));
    }
  })();
  return {
    out,
    cache: join(work, name, '.folio-cache'),
    output: () => text,
    signal: (s) => child.kill(s),
    exited,
    poller,
    stopPolling: () => (polling = false),
  };
}

/** Changes site.yaml, and waits until the rebuild has written its responses: the rest waits for open pages to reload. */
async function changeAndWait(s: Session, title: string): Promise<void> {
  const file = join(content, 'site.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: .*$/m, `title: "${title}"`));
  for (let i = 0; i < 2400 && !/site\.yaml changed → \d+ changed/.test(s.output()); i++) await new Promise((ok) => setTimeout(ok, 20));
  expect(s.output()).toMatch(/site\.yaml changed → \d+ changed/);
}

async function expectSameAsClean(s: Session): Promise<void> {
  const clean = join(work, `clean-${Date.now()}`);
  await cleanBuild({ content, out: clean, now: NOW }, { cache: s.cache, out: s.out });
  expect(await treeHash(s.out)).toEqual(await treeHash(clean));
  await rm(clean, { recursive: true, force: true });
}

/** Files folio leaves beside or inside the output while it writes: none may stay. */
async function leftovers(s: Session): Promise<string[]> {
  const beside = (await readdir(join(s.out, '..'))).filter((n) => /\.folio-(tmp-|old-|lock)/.test(n));
  const inside = (await readdir(s.out, { recursive: true })).filter((n) => n.includes('.folio-dev-'));
  return [...beside, ...inside];
}

describe('stopping folio dev', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`writes the rebuild in progress whole on ${signal}, at once, and says so`, SLOW, async () => {
      const s = await session(`once-${signal}`);
      await changeAndWait(s, `Stopped by ${signal}`);
      s.signal(signal);
      const exit = await s.exited;
      s.stopPolling();
      await s.poller;
      expect(exit, s.output()).toEqual({ code: 0, signal: null });
      expect(s.output()).toContain('stopping once the rebuild in progress is written');
      expect(s.output()).toMatch(/then \d+ more files? \(lists, feeds/);
      expect(await leftovers(s)).toEqual([]);
      await expectSameAsClean(s);
    });

  it('stops at once when asked twice, rather than wait for the rebuild', async () => {
    const listeners = process.listenerCount('SIGINT');
    let closed = 0;
    const exits: number[] = [];
    const said: string[] = [];
    // A session whose rebuild never ends.
    const stopped = stopOnSignals(
      { close: () => (closed++, new Promise(() => undefined)) },
      (code) => exits.push(code),
      (m) => said.push(m),
    );
    process.emit('SIGINT');
    expect([closed, exits]).toEqual([1, []]);
    process.emit('SIGTERM');
    expect([closed, exits]).toEqual([1, [130]]);
    expect(said.join('\n')).toContain('the next folio build or folio dev writes the output whole again');
    // Its listeners are gone: a later signal is not its own.
    expect(process.listenerCount('SIGINT')).toBe(listeners);
    void stopped;
  });
});

describe('stopping a build before it is swapped in (D40)', () => {
  for (const command of ['build', 'dev'] as const)
    it(`folio ${command}: leaves the previous output as it was, and nothing beside it`, SLOW, async () => {
      const out = join(work, `stopped-${command}`, 'dist');
      const parent = join(out, '..');
      // Another clock: every response is made again. What the run would swap in, made apart.
      const clock = ['--now', '2026-12-24T00:00:00Z', '--no-cache'];
      const whole = join(work, `whole-${command}`, 'dist');
      expect(spawnSync(process.execPath, ['bin/folio.js', 'build', '--content', content, '--out', whole, ...clock]).status).toBe(0);
      const swapped = await treeHash(whole);
      // The build is frozen (SIGSTOP) once its staging folder is there, to
      // know it has not begun the swap, which a signal waits for
      // (swap-signal.test.ts); a run that had is tried again. The folder
      // cannot show a swap whose first rename is asked for but not yet made:
      // such a run ends with the new output whole, never a mix of the two.
      let stoppedBeforeSwap = false;
      for (let attempt = 0; attempt < 3 && !stoppedBeforeSwap; attempt++) {
        await build({ content, out, now: NOW, cache: false });
        const before = await treeHash(out);
        const args = ['bin/folio.js', command, '--content', content, '--out', out, ...clock];
        const child = spawn(process.execPath, command === 'dev' ? [...args, '--port', '0'] : args, { stdio: 'ignore' });
        const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
        const staging = (names: string[]) => names.some((n) => n.includes('.folio-tmp-') && !n.endsWith('-old'));
        for (let i = 0; i < 24_000 && !staging(await readdir(parent)); i++) await new Promise((ok) => setTimeout(ok, 5));
        child.kill('SIGSTOP');
        const names = await readdir(parent);
        stoppedBeforeSwap = staging(names) && names.includes('dist') && !names.some((n) => n.endsWith('-old'));
        child.kill('SIGINT');
        child.kill('SIGCONT');
        const code = await exited;
        if (!stoppedBeforeSwap) continue;
        expect(code).toBe(130);
        const after = await treeHash(out);
        if (!isDeepStrictEqual(after, before) && isDeepStrictEqual(after, swapped)) {
          stoppedBeforeSwap = false;
          continue;
        }
        expect(after).toEqual(before);
      }
      expect(stoppedBeforeSwap).toBe(true);
      // The staging folder went at once; a process of its own removes it.
      for (let i = 0; i < 400 && (await readdir(parent)).length > 1; i++) await new Promise((ok) => setTimeout(ok, 25));
      expect(await readdir(parent)).toEqual(['dist']);
    });
});
