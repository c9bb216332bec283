// What the CLI prints: a progress bar with counts on a terminal,
// one quiet summary line otherwise (CI logs, pipes), and no colour when
// NO_COLOR is set. The terminal runs are real: `script` gives the CLI a pty.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paint, ProgressBar, type Terminal } from '../build/progress.js';
import { writeCorpus } from './helpers/corpus.js';
import { tempDir } from './helpers/site.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'bin/folio.js');
const SCRIPT = '/usr/bin/script';
const SLOW = { timeout: 240_000 };
/** Any SGR sequence (colour, dim, bold). */
const SGR = /\u001b\[\d+(;\d+)*m/;

let work: string;
let content: string;
beforeAll(async () => {
  work = await tempDir('folio-output-');
  // Big enough that the build runs longer than the bar's 300 ms delay on any machine we know.
  content = await writeCorpus(join(work, 'content'), { posts: 600, bodyBytes: 800 });
}, 120_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function recorder(tty: boolean, color: boolean): Terminal & { text: string } {
  const t = { tty, color, columns: 80, text: '', write: (s: string) => void (t.text += s) };
  return t;
}

describe('progress and summary', () => {
  it('draws a bar with counts on a terminal, in place, and clears it', () => {
    const term = recorder(true, false);
    const bar = new ProgressBar(term, 0, 0);
    bar.update('render', 250, 1000);
    bar.update('write', 31848, 31848);
    bar.clear();
    expect(term.text).toContain('rendering ');
    expect(term.text).toContain('250/1,000 files');
    expect(term.text).toContain('31,848/31,848 responses');
    expect(term.text.startsWith('\r\u001b[2K')).toBe(true);
    expect(term.text.endsWith('\r\u001b[2K')).toBe(true);
    expect(term.text).not.toMatch(SGR);
  });

  it('draws nothing when the output is not a terminal', () => {
    const term = recorder(false, false);
    const bar = new ProgressBar(term, 0, 0);
    bar.update('render', 1, 2);
    bar.clear();
    expect(term.text).toBe('');
  });

  it('paints only when colour is on', () => {
    expect(paint(false).green('ok')).toBe('ok');
    expect(paint(true).green('ok')).toMatch(SGR);
  });

  it('prints one summary line and nothing else when stdout is not a terminal', SLOW, async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, 'build', '--content', content, '--out', join(work, 'piped'), '--now', '2026-11-22'],
      { env: { ...process.env, NO_COLOR: '' } },
    );
    expect(stderr).toBe('');
    expect(stdout).toMatch(
      /^folio: built 600 posts, 0 projects, 0 services → .*piped\/ \(\d+ files, [\d.]+ (KiB|MiB), \d+ ms\) \[601 rendered\]\n$/,
    );
    expect(stdout).not.toMatch(/\r|\u001b/);
  });

  describe.skipIf(!existsSync(SCRIPT))('on a terminal', () => {
    /** Runs the CLI on a pseudo-terminal and returns what the terminal received. */
    async function onTerminal(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
      const command = [process.execPath, CLI, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
      const { stdout } = await run(SCRIPT, ['-qfec', command, '/dev/null'], {
        env: { ...process.env, ...env },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    }

    it('shows the bar with counts, then the summary, in colour', SLOW, async () => {
      const text = await onTerminal(['build', '--content', content, '--out', join(work, 'tty'), '--now', '2026-11-22', '--no-cache'], {
        NO_COLOR: '',
        TERM: 'xterm',
      });
      expect(text).toMatch(/(rendering|writing) +\S*[█░]+\S* +[\d,]+\/[\d,]+ (files|responses)/);
      expect(text).toMatch(SGR);
      expect(text).toMatch(/folio: built 600 posts/);
    });

    it('gives a warning a line of its own, never the end of the bar', SLOW, async () => {
      // A tag that loses characters to its slug warns once the posts are rendered, after the bar is drawn.
      const tagged = join(work, 'tagged');
      await cp(content, tagged, { recursive: true });
      const post = join(tagged, 'posts', (await readdir(join(tagged, 'posts'))).sort()[300]!);
      await writeFile(post, (await readFile(post, 'utf8')).replace('tags: [', 'tags: [C++, '));
      const text = await onTerminal(['build', '--content', tagged, '--out', join(work, 'tty-warn'), '--now', '2026-11-22', '--no-cache'], {
        NO_COLOR: '1',
        TERM: 'xterm',
      });
      expect(text).toMatch(/(rendering|writing) +[█░]+ +[\d,]+\/[\d,]+ (files|responses)/);
      const at = text.indexOf('folio: warning: ');
      expect(at).toBeGreaterThan(0);
      // Since the cursor last went to the start of the line: nothing, or the erase that clears the bar.
      const start = Math.max(text.lastIndexOf('\n', at), text.lastIndexOf('\r', at)) + 1;
      expect(['', '\u001b[2K']).toContain(text.slice(start, at));
      expect(text).toMatch(/folio: built 600 posts/);
    });

    it('uses no colour with NO_COLOR, and still shows the bar', SLOW, async () => {
      const text = await onTerminal(
        ['build', '--content', content, '--out', join(work, 'tty-plain'), '--now', '2026-11-22', '--no-cache'],
        { NO_COLOR: '1', TERM: 'xterm' },
      );
      expect(text).toMatch(/(rendering|writing) +[█░]+ +[\d,]+\/[\d,]+ (files|responses)/);
      expect(text).not.toMatch(SGR);
      expect(text).toMatch(/folio: built 600 posts/);
    });
  });
});
