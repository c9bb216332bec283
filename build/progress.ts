// What the CLI prints while it works: a progress bar with counts on a
// terminal, nothing until the one-line summary otherwise (CI logs, pipes).
// Colour only on a terminal, and never when NO_COLOR is set (no-color.org).

export interface Terminal {
  /** A terminal: the bar redraws one line in place. */
  tty: boolean;
  color: boolean;
  columns: number;
  write(text: string): void;
}

export function terminal(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): Terminal {
  const tty = stream.isTTY === true;
  return {
    tty,
    color: tty && !env.NO_COLOR && env.TERM !== 'dumb',
    columns: stream.columns || 80,
    write: (text) => void stream.write(text),
  };
}

export interface Paint {
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function paint(color: boolean): Paint {
  const sgr = (open: number, close: number) => (s: string) => (color ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { green: sgr(32, 39), yellow: sgr(33, 39), red: sgr(31, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

const LABELS: Record<string, string> = { render: 'rendering', write: 'writing' };
const NOUNS: Record<string, string> = { render: 'files', write: 'responses' };

/**
 * A one-line bar, e.g. `writing   ████████░░░░░░  12,345/31,848 responses`.
 * It appears only after `delayMs`, so quick builds print just their summary,
 * and redraws at most every `everyMs`.
 */
export class ProgressBar {
  private shown = false;
  private last = 0;
  private readonly started = performance.now();

  constructor(
    private readonly term: Terminal,
    private readonly delayMs = 300,
    private readonly everyMs = 80,
  ) {}

  update(phase: string, done: number, total: number): void {
    if (!this.term.tty) return;
    const now = performance.now();
    if (now - this.started < this.delayMs) return;
    if (this.shown && now - this.last < this.everyMs && done < total) return;
    this.last = now;
    this.shown = true;
    const p = paint(this.term.color);
    const counts = `${done.toLocaleString('en')}/${total.toLocaleString('en')} ${NOUNS[phase] ?? ''}`.trimEnd();
    const label = (LABELS[phase] ?? phase).padEnd(10);
    const width = Math.max(10, Math.min(40, this.term.columns - label.length - counts.length - 4));
    const filled = total ? Math.round((width * done) / total) : width;
    this.term.write(`\r\u001b[2K${label}${p.green('█'.repeat(filled))}${p.dim('░'.repeat(width - filled))}  ${counts}`);
  }

  /** Removes the bar, so the summary takes its line. */
  clear(): void {
    if (this.shown) this.term.write('\r\u001b[2K');
    this.shown = false;
  }
}

export function formatBytes(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
