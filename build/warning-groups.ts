// The terminal's warnings, a few of each kind: a blog moved from another
// generator gives the same warning (a field folio does not read, the same
// raw HTML) in hundreds of posts, and a wall of them hides the one that
// differs. The first of each kind print in full as they come; the rest are
// counted, and named in one line at the end. `folio check --json` still
// lists every one.

/** How many warnings of one kind print in full. */
export const SHOWN_PER_KIND = 3;
const NAMED = 3;

/** A warning's place (file:line:column, or the file) and its message's first line, which is its kind. */
function split(warning: string): { place: string; kind: string } {
  const firstLine = warning.split('\n')[0]!;
  const at = /^(.+?:\d+:\d+): /.exec(firstLine) ?? /^([^\s:][^:]*?): /.exec(firstLine);
  return at ? { place: at[1]!, kind: firstLine.slice(at[0].length) } : { place: '', kind: firstLine };
}

export interface WarningGroups {
  warn(warning: string): void;
  /** Prints one line per kind with more than it showed, when the command ends; a second call prints nothing. */
  flush(): void;
}

export function groupWarnings(print: (warning: string) => void): WarningGroups {
  const held = new Map<string, { shown: number; later: { place: string; warning: string }[] }>();
  return {
    warn(warning) {
      const { place, kind } = split(warning);
      const group = held.get(kind) ?? { shown: 0, later: [] };
      held.set(kind, group);
      if (group.shown < SHOWN_PER_KIND || !place) {
        group.shown++;
        print(warning);
      } else group.later.push({ place, warning });
    },
    flush() {
      for (const [kind, { later }] of held) {
        // One more is said in full: a line that counts it would be no shorter.
        if (later.length <= 1) {
          for (const { warning } of later) print(warning);
          continue;
        }
        const places = later.map((l) => l.place);
        const named = places.slice(0, NAMED).join(', ');
        const rest = places.length > NAMED ? ` and ${places.length - NAMED} more` : '';
        const what = kind.length > 90 ? `${kind.slice(0, 89)}…` : kind;
        print(`the same in ${places.length} more places (${named}${rest}): ${what} (folio check --json lists each)`);
      }
      held.clear();
    },
  };
}
