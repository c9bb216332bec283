// The fast path for front-matter: js-yaml reads a typical
// front-matter about eight times faster than `yaml`'s parseDocument with line
// positions, which cost 5–15 % of every rendering thread. It must read
// exactly what `yaml` reads, so it gets the YAML 1.2 core schema as `yaml`
// resolves it (js-yaml's own CORE_SCHEMA keeps YAML 1.1 forms such as `014`
// as octal and `1:20` as a number), and it declines anything where the two
// libraries could disagree or where `yaml` reports an error that js-yaml
// would not: anchors, aliases (and so YAML bombs), tags, directives.
// Duplicate keys and syntax errors make js-yaml throw; the caller then reads
// the text with `yaml`, which says where the problem is.
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';

/** One js-yaml type per tag (js-yaml keeps only the last of several with one tag): the first form that matches builds the value. */
function scalar(tag: string, forms: [RegExp, (text: string) => unknown][]): Type {
  const form = (text: string | null) => forms.find(([test]) => test.test(text ?? ''));
  return new Type(`tag:yaml.org,2002:${tag}`, { kind: 'scalar', resolve: (text: string | null) => form(text) !== undefined, construct: (text: string | null) => form(text)![1](text ?? '') });
}

// The regular expressions of `yaml`'s core schema (yaml/dist/schema/core), in its order of precedence.
const CORE = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]),
    scalar('bool', [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (text) => text[0] === 't' || text[0] === 'T']]),
    scalar('int', [
      [/^0o[0-7]+$/, (text) => parseInt(text.slice(2), 8)],
      [/^[-+]?[0-9]+$/, (text) => parseInt(text, 10)],
      [/^0x[0-9a-fA-F]+$/, (text) => parseInt(text.slice(2), 16)],
    ]),
    scalar('float', [
      [/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, (text) => (/nan/i.test(text) ? NaN : text[0] === '-' ? -Infinity : Infinity)],
      [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, (text) => parseFloat(text)],
      [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, (text) => parseFloat(text)],
    ]),
  ],
});

/** Characters that start anchors, aliases and tags, and a directive line: left to `yaml`. */
const DECLINED = /[&*!]|^%/m;

/** A quote that opens a scalar: at a line's start, after a key's colon, a list dash, or in a flow collection. */
const OPENING_QUOTE = /(?:^[ \t]*|:[ \t]+|^[ \t]*-[ \t]+|[[{,][ \t]*)(["'])/g;

/**
 * Whether a quoted scalar runs on past its line. js-yaml takes one whose next
 * line is not indented, which `yaml` rejects: `title: "unclosed` above
 * another key read as a title of "unclosed title: " and a key made of the
 * next title's words (a content fuzz finding). Front-matter rarely spans a
 * quoted value over lines, so all such text goes to `yaml`.
 */
function quoteRunsOn(text: string): boolean {
  for (const line of text.split('\n')) {
    OPENING_QUOTE.lastIndex = 0;
    for (let m = OPENING_QUOTE.exec(line); m; m = OPENING_QUOTE.exec(line)) {
      const quote = m[1]!;
      let i = m.index + m[0].length;
      for (;;) {
        if (i >= line.length) return true;
        const c = line[i]!;
        if (quote === '"' && c === '\\') i += 2;
        else if (quote === "'" && c === "'" && line[i + 1] === "'") i += 2;
        else if (c === quote) break;
        else i++;
      }
      // Quotes inside this scalar open nothing: go on after its closing one.
      OPENING_QUOTE.lastIndex = i + 1;
    }
  }
  return false;
}

export type QuickResult = { ok: true; value: unknown } | { ok: false };

/** The front-matter's value, or `{ ok: false }` when only `yaml` may read this text. */
export function quickYaml(text: string): QuickResult {
  if (DECLINED.test(text) || quoteRunsOn(text)) return { ok: false };
  try {
    return { ok: true, value: load(text, { schema: CORE }) ?? null };
  } catch {
    return { ok: false };
  }
}
