// One small check per front-matter rule. Each reads a field, reports a
// problem at that field's position, and returns a clean value or undefined.
import type { Parsed } from './frontmatter.js';
import { closest, nearField, type Problem } from './problems.js';

export class Fields {
  constructor(
    readonly doc: Parsed,
    readonly kind: string,
    readonly known: readonly string[],
    readonly problems: Problem[],
  ) {}

  /** What the file is published with but says: the build goes on. */
  readonly warnings: Problem[] = [];

  report(key: string, message: string, hint: string, index?: number): void {
    this.problems.push({ file: this.doc.source.file, ...this.doc.position(key, index), message, hint });
  }

  warn(key: string, message: string, hint: string, index?: number): void {
    this.warnings.push({ file: this.doc.source.file, ...this.doc.position(key, index), message, hint });
  }

  private missing(key: string, example: string): undefined {
    const near = closest(key, Object.keys(this.doc.data).filter((k) => !this.known.includes(k)));
    // site.yaml is YAML throughout; a Markdown file with no front-matter at all (an empty file, or a body alone) needs the block first.
    const yaml = this.kind === 'site.yaml';
    const none = !yaml && !Object.keys(this.doc.data).length && !/^\uFEFF?---/.test(this.doc.source.text);
    const hint = near
      ? `Did you mean "${key}"? ${yaml ? 'site.yaml' : 'The front-matter'} has "${near}".`
      : none
        ? `The file has no front-matter: start it with a line "---", then ${key}: ${example} and the other fields, then "---".`
        : `Add it to ${yaml ? 'site.yaml' : 'the front-matter'}, e.g. ${key}: ${example}`;
    this.report(key, `A ${this.kind} needs \`${key}\`, and it is missing.`, hint);
    return undefined;
  }

  has(key: string): boolean {
    const v = this.doc.data[key];
    return v !== undefined && v !== null && v !== '';
  }

  string(key: string, example: string, required = true): string | undefined {
    const v = this.doc.data[key];
    if (v === undefined || v === null || v === '') return required ? this.missing(key, example) : undefined;
    if (typeof v === 'string') {
      if (v.trim() === '') return required ? this.missing(key, example) : undefined;
      return v.trim();
    }
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    this.report(key, `\`${key}\` must be text, not ${describe(v)}.`, `Write it as ${key}: ${example}`);
    return undefined;
  }

  /** Words, optional: YAML's true, false or a number (`disclaimer: true`) is refused, not printed as "true". */
  words(key: string, example: string): string | undefined {
    const v = this.doc.data[key];
    if (typeof v === 'boolean' || typeof v === 'number') {
      this.report(key, `\`${key}\` must be text, not ${describe(v)}.`, `Write the words in quotes, e.g. ${key}: "${example}"`);
      return undefined;
    }
    return this.string(key, example, false);
  }

  /** A list of words: as list(), with an item of YAML's true, false or a number refused as words() refuses it. */
  wordList(key: string, example: string): string[] | undefined {
    const v = this.doc.data[key];
    const bad = Array.isArray(v) ? v.findIndex((i) => typeof i === 'boolean' || typeof i === 'number') : -1;
    if (bad !== -1) {
      this.report(key, `\`${key}\` item ${bad + 1} is ${describe((v as unknown[])[bad])}, not text.`, `Write each item in quotes, e.g. ${key}: [${example}]`, bad);
      return undefined;
    }
    return this.list(key, example);
  }

  /** A YYYY-MM-DD calendar date. */
  date(key: string, required = true): string | undefined {
    const v = this.string(key, '2026-03-14', required);
    if (v === undefined) return undefined;
    // A time of day, as Hugo and Jekyll write dates: the day is kept as written, the time is the author's to drop.
    const timed = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}/.exec(v)?.[1];
    if (timed && isDate(timed)) {
      this.report(key, `\`${key}\` has a time of day, and folio dates by the day: "${v}".`, `Write ${key}: ${timed} (the day as written). A post is published from the start of its day, UTC.`);
      return undefined;
    }
    if (!isDate(v)) {
      // Written as YYYY-MM-DD but no day of the calendar (2026-02-30): the hint says why.
      const why = /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${notADay(v)}. ` : '';
      this.report(key, `\`${key}\` is not a date: "${v}".`, `${why}Write the date as YYYY-MM-DD, e.g. ${key}: 2026-03-14`);
      return undefined;
    }
    return v;
  }

  /** A YYYY-MM or YYYY-MM-DD month, for project spans. */
  month(key: string): string | undefined {
    const v = this.string(key, '2025-06', false);
    if (v === undefined) return undefined;
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(v) && !isDate(v)) {
      this.report(key, `\`${key}\` is not a month or date: "${v}".`, `Write it as YYYY-MM or YYYY-MM-DD, e.g. ${key}: 2025-06`);
      return undefined;
    }
    return v;
  }

  list(key: string, example: string, required = false): string[] | undefined {
    const v = this.doc.data[key];
    if (v === undefined || v === null) return required ? this.missing(key, `[${example}]`) : [];
    const items = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(items)) {
      this.report(key, `\`${key}\` must be a list of text items, not ${describe(v)}.`, `Write it as ${key}: [${example}]`);
      return undefined;
    }
    const bad = items.findIndex((i) => typeof i !== 'string' && typeof i !== 'number');
    if (bad !== -1) {
      const item = items[bad];
      const map = typeof item === 'object' && item !== null && !Array.isArray(item);
      this.report(
        key,
        `\`${key}\` item ${bad + 1} is ${describe(item)}, not text${map ? ': an unquoted ": " makes YAML read it as a key and a value' : ''}.`,
        map ? `Quote the item, e.g. - "${Object.entries(item as object).map(([k, x]) => `${k}: ${x}`).join(', ')}"` : `Write each item as text, e.g. ${key}: [${example}]`,
        bad,
      );
      return undefined;
    }
    return items.map((i) => String(i).trim()).filter(Boolean);
  }

  integer(key: string, fallback: number): number | undefined {
    const v = this.doc.data[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      this.report(key, `\`${key}\` must be a whole number, not ${describe(v)}.`, `Write it as ${key}: 1`);
      return undefined;
    }
    return v;
  }

  boolean(key: string): boolean | undefined {
    const v = this.doc.data[key];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') {
      this.report(key, `\`${key}\` must be true or false, not ${describe(v)}.`, booleanHint(key, v));
      return undefined;
    }
    return v;
  }

  map(key: string, example: string, required = true): Record<string, unknown> | undefined {
    const v = this.doc.data[key];
    if (v === undefined || v === null) return required ? this.missing(key, example) : undefined;
    if (typeof v !== 'object' || Array.isArray(v)) {
      this.report(key, `\`${key}\` must be a map of fields.`, `Write it as ${key}: ${example}`);
      return undefined;
    }
    return v as Record<string, unknown>;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const v = this.string(key, allowed[0]!);
    if (v === undefined) return undefined;
    if (!allowed.includes(v as T)) {
      const near = closest(v, allowed);
      this.report(key, `\`${key}\` is "${v}", which is not one of ${allowed.join(', ')}.`, near ? `Did you mean "${near}"?` : `Use one of ${allowed.join(', ')}.`);
      return undefined;
    }
    return v as T;
  }

  /** Reports every key one or two letters away from a known one, for files without free fields. */
  misspelt(): void {
    for (const key of Object.keys(this.doc.data)) {
      if (this.known.includes(key)) continue;
      const near = closest(key, this.known);
      if (near) this.report(key, `\`${key}\` is not a field of ${this.kind}.`, `Did you mean "${near}"?`);
    }
  }

  /**
   * Warns of each field the file passes through (D2) that is a letter or two
   * from one folio reads: most likely a typo, and a silent one (`drafts: true`
   * publishes the post it was meant to hold back).
   */
  warnNearFields(): void {
    for (const key of Object.keys(this.doc.data)) {
      const near = this.known.includes(key) ? undefined : nearField(key, this.known);
      if (near)
        this.warn(
          key,
          `\`${key}\` is not a field of a ${this.kind}, so folio publishes it as it is in the API and reads nothing from it.`,
          `Did you mean \`${near}\`? Rename it, or keep it if it is a field of your own.`,
        );
    }
  }

  /** Fields the contract does not name, passed through to the API as they are. */
  extra(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.doc.data).filter(([k]) => !this.known.includes(k)));
  }
}

/** The fix for a value that is not a YAML boolean: the one it reads as (a quoted "false" must not become true), else both. */
function booleanHint(key: string, v: unknown): string {
  const word = typeof v === 'string' ? v.trim().toLowerCase() : '';
  const only = 'only true and false, unquoted, read as yes or no';
  if (['false', 'no', 'off'].includes(word)) return `Write it as ${key}: false (${only}).`;
  if (['true', 'yes', 'on'].includes(word)) return `Write it as ${key}: true (${only}).`;
  return `Write it as ${key}: true or ${key}: false (${only}).`;
}

/** Why a YYYY-MM-DD that is not a date names no day: its month, or the days its month has. */
function notADay(v: string): string {
  const [year, month, day] = v.split('-').map(Number) as [number, number, number];
  if (month < 1 || month > 12) return `There is no month ${month}`;
  if (day < 1) return 'Days start at 01';
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const name = new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return `${name} ${year} has ${days} days`;
}

export function isDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'empty';
  return typeof v === 'object' ? 'a map' : `${typeof v} ${JSON.stringify(v)}`;
}
