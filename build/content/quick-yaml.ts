// The fast path for front-matter (issue 8): js-yaml reads a typical
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

export type QuickResult = { ok: true; value: unknown } | { ok: false };

/** The front-matter's value, or `{ ok: false }` when only `yaml` may read this text. */
export function quickYaml(text: string): QuickResult {
  if (DECLINED.test(text)) return { ok: false };
  try {
    return { ok: true, value: load(text, { schema: CORE }) ?? null };
  } catch {
    return { ok: false };
  }
}
