// The benchmark's profile summary (bench/profile.js) over a real profiled
// build: its phases are functions the source still declares, and it finds
// them in the bundle, where esbuild may have renamed them.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain JavaScript module of the benchmark
import { byThread, PHASES, summariseFiles, toMarkdown } from '../bench/profile.js';
import { workspace } from './helpers/workspace.js';

interface Phase {
  name: string;
  file: string;
}

interface Thread {
  thread: string;
  threads: number;
  totalMs: number;
  phases: Map<string, number>;
}

const ws = workspace('folio-bench-profile-');
const run = promisify(execFile);
const CLI = join(process.cwd(), 'bin/folio.js');

describe('the benchmark profile', () => {
  it.each((PHASES as Phase[]).map((p) => [`${p.name} (${p.file})`, p]))('phase %s is declared in build/', (_, phase: Phase) => {
    const file = join('build', phase.file);
    expect(existsSync(file), `${file} is gone: name the phase's new file in bench/profile.js`).toBe(true);
    const name = phase.name.replace(/[$]/g, '\\$&');
    const declared = new RegExp(
      `(function\\*?\\s+${name}\\b|^\\s*(export\\s+)?(const|let)\\s+${name}\\s*=|^\\s+(static\\s+|private\\s+|async\\s+)*${name}\\s*[(<])`,
      'm',
    );
    expect(
      declared.test(readFileSync(file, 'utf8')),
      `${file} no longer declares ${phase.name}: rename the phase in bench/profile.js`,
    ).toBe(true);
  });

  let attempts = 0;
  // Sampling decides which bundle a short-lived thread is seen in: under a full suite's load both writing
  // threads of the small sample can be sampled only outside their bundle. Tried again then, not weakened.
  it('charges a real build to its threads and to the phases the source names', { retry: 2 }, async () => {
    const content = await ws.content();
    // A folder per attempt: a retry must build cold again, into no earlier profiles, output or cache.
    const attempt = join(ws.cwd, `attempt-${++attempts}`);
    const dir = join(attempt, 'profile');
    const out = join(attempt, 'dist');
    // As the benchmark runs it: Node takes --cpu-prof on its command line only.
    await run(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100', CLI, 'build', '--content', content, '--out', out],
      {
        cwd: ws.cwd,
      },
    );
    const threads = byThread(summariseFiles([dir])) as Thread[];
    const main = threads.find((t) => t.thread === 'main')!;
    expect(threads[0]).toBe(main);
    expect(main.threads).toBe(1);
    // The build writes its files from two threads of lib/write-worker.js. On a loaded machine one of them may
    // be sampled only outside its bundle (its batches too short to catch), and is then a plain "worker".
    const kinds = threads.map((t) => `${t.thread} ×${t.threads}`).join(', ');
    const count = (kind: string) => threads.find((t) => t.thread === kind)?.threads ?? 0;
    expect(count('write worker'), kinds).toBeGreaterThanOrEqual(1);
    expect(count('write worker') + count('worker'), kinds).toBe(2);
    // A small site is rendered on the main thread. The bundle calls content/markdown.ts's render `render2`
    // (another module has a render too): found under its source name, through the source map.
    const at = (phase: string) => main.phases.get(phase) ?? 0;
    expect(at('render content/markdown.ts')).toBeGreaterThan(0);
    expect(at('dispatch core/respond.ts')).toBeGreaterThan(0);
    expect(at('render content/markdown.ts')).toBeLessThanOrEqual(main.totalMs);
    // The tables call the sampled time busy, not CPU, and put the process's CPU beside it when they have it.
    const busy = Math.round(threads.reduce((a, t) => a + t.totalMs, 0)).toLocaleString('en');
    const tables = toMarkdown(threads, 5, { cpuMs: 1234.4, ms: 987.6 }) as string;
    expect(tables).toContain(`Busy time in the profiles: ${busy} ms over ${threads.reduce((a, t) => a + t.threads, 0)} threads`);
    expect(tables).toContain('the process took 1,234 ms of CPU (user + system) in 988 ms of wall time');
    expect(tables).toContain('| Thread | threads | busy ms | share | idle ms |');
    expect(toMarkdown(threads, 5, { cpuMs: null, ms: 987.6 }) as string).not.toContain('the process took');
  });
});
