// What folio dev prints: one line per rebuild with what changed, the first
// files by name, the content's problems at their lines, and when the rest of
// a rebuild (lists, feeds, search index, host files) was written.
import { problemPlace } from '../content/problems.js';
import { paint } from '../progress.js';
import type { RebuildReport } from './state.js';

const SHOWN_FILES = 8;
const SHOWN_TRIGGERS = 3;

const day = (d: Date) => d.toISOString().slice(0, 10);

export function reporter(log: (line: string) => void, color: boolean, now: Date, clock: () => Date = () => new Date()) {
  const p = paint(color);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    /** The content files a rebuild was for, as its line begins: the first by name, then how many more (a checkout changes hundreds). */
    trigger(r: RebuildReport): string {
      const changes = [
        ...r.sources.added.map((f) => [f, 'added'] as const),
        ...r.sources.changed.map((f) => [f, 'changed'] as const),
        ...r.sources.removed.map((f) => [f, 'removed'] as const),
        ...(r.images ?? []).map((f) => [f, 'changed'] as const),
      ];
      if (!changes.length) return 'no content change';
      const shown = changes.length > SHOWN_TRIGGERS + 1 ? SHOWN_TRIGGERS : changes.length;
      const named = changes.slice(0, shown).map(([f, how]) => `${f} ${how}`);
      const rest = changes.slice(shown);
      if (!rest.length) return named.join(', ');
      const counts = new Map<string, number>();
      for (const [, how] of rest) counts.set(how, (counts.get(how) ?? 0) + 1);
      const more =
        counts.size === 1
          ? `${rest.length} more ${rest[0][1]}`
          : `${rest.length} more (${[...counts].map(([how, n]) => `${n} ${how}`).join(', ')})`;
      return `${named.join(', ')} and ${more}`;
    },
    rebuilt(r: RebuildReport, trigger: string): void {
      const time = p.dim(clock().toTimeString().slice(0, 8));
      if (!r.ok) {
        log(`${time} ${trigger} → ${p.red(plural(r.problems.length, 'problem'))}; still serving the last good build`);
        for (const problem of r.problems) log(`  ${problemPlace(problem)}: ${problem.message}\n    hint: ${problem.hint}`);
        return;
      }
      const { added, changed, removed } = r.files;
      const counts = `${changed.length} changed, ${added.length} added, ${removed.length} removed`;
      log(`${time} ${trigger} → ${counts} in ${Math.round(r.ms)} ms${r.full ? p.dim(` (every response asked: ${r.full})`) : ''}`);
      const lines = [
        ...added.map((f) => p.green(`  + ${f}`)),
        ...changed.map((f) => p.yellow(`  ~ ${f}`)),
        ...removed.map((f) => p.red(`  - ${f}`)),
      ];
      for (const line of lines.slice(0, SHOWN_FILES)) log(line);
      if (lines.length > SHOWN_FILES) log(p.dim(`  … and ${lines.length - SHOWN_FILES} more`));
      const held = r.held ?? [];
      for (const { file, date } of held.slice(0, SHOWN_FILES))
        log(
          date === null
            ? `  ${file} is a draft: not published until draft: true is removed`
            : `  ${file} is dated ${date}, after this session's build clock (${day(now)}, UTC): not published; restart folio dev on that day, or pass --now ${date}, to see it`,
        );
      if (held.length > SHOWN_FILES)
        log(`  … and ${held.length - SHOWN_FILES} more posts not published (drafts, or dated after ${day(now)})`);
    },
    /** The second half of a rebuild: written after the first, or left to the next rebuild. */
    rest(more: number | null, ms: number): void {
      if (more === null) log(p.dim('  another change is waiting: the lists, feeds, search index and host files are left to its rebuild'));
      else
        log(p.dim(`  then ${plural(more, 'more file')} (lists, feeds, model, manifest, search index, host files) in ${Math.round(ms)} ms`));
    },
    firstBuild(r: RebuildReport, out: string): void {
      if (!r.ok) return this.rebuilt(r, 'first build');
      const s = r.full ? `${r.files.added.length} files written` : `${r.files.added.length} files changed since the last build`;
      log(`folio dev: built ${out}/ in ${Math.round(r.ms)} ms (${s})`);
    },
    serving(url: string, content: string): void {
      log(`folio dev: serving at ${url} — watching ${content}/ (Ctrl-C to stop)`);
    },
    stopping(): void {
      log('folio dev: stopping once the rebuild in progress is written, so that the output is whole (Ctrl-C again stops at once)');
    },
    error(message: string): void {
      log(p.red(`folio dev: ${message}`));
    },
  };
}
