// Query parameters declared once, as data: the validator below, the
// discovery document, the OpenAPI description and the MCP input schemas all
// read the same declarations.

export type ParamSchema =
  /** `maximum` is required: a value past it is refused, so the declarations (and OpenAPI) must say where that is. */
  | { type: 'integer'; minimum: number; maximum: number; default?: number }
  | {
      type: 'string';
      enum?: readonly string[];
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      format?: 'date';
      default?: string;
    };

export interface ParamSpec {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  description: string;
  schema: ParamSchema;
  example?: string | number;
  /** Applied before validation, e.g. tag normalisation (D9). */
  normalise?: (value: string) => string;
}

export type ParamValues = Record<string, string | number | undefined>;

export interface ParamProblem {
  message: string;
  hint: string;
}

/** What the valid values of a parameter are, in words, for hints. */
export function describeRange(spec: ParamSpec): string {
  const s = spec.schema;
  if (s.type === 'integer') {
    return `\`${spec.name}\` must be an integer from ${s.minimum} to ${s.maximum}${s.default === undefined ? '' : ` (default ${s.default})`}.`;
  }
  if (s.enum) return `\`${spec.name}\` must be one of: ${s.enum.join(', ')}.`;
  if (s.format === 'date')
    return `\`${spec.name}\` must be a date as YYYY-MM-DD${spec.example ? `, for example ${spec.name}=${spec.example}` : ''}.`;
  if (s.pattern && spec.in === 'query')
    return spec.example
      ? `\`${spec.name}\` must be written like ${spec.name}=${spec.example}.`
      : `\`${spec.name}\` must match ${s.pattern}.`;
  if (s.maxLength)
    return `\`${spec.name}\` must be ${spec.required ? 'a non-blank string' : 'a string'} of at most ${s.maxLength} characters${spec.example ? `, for example ${spec.name}=${spec.example}` : ''}.`;
  return `\`${spec.name}\` must be a string.`;
}

/** Validates a raw query string against the declared parameters; unknown keys are ignored (D11). */
export function parseQuery(search: string, specs: readonly ParamSpec[]): { values: ParamValues } | { problem: ParamProblem } {
  const query = new URLSearchParams(search);
  const values: ParamValues = {};
  for (const spec of specs) {
    if (spec.in !== 'query') continue;
    const all = query.getAll(spec.name);
    if (all.length > 1) {
      return {
        problem: {
          message: `The query parameter \`${spec.name}\` is given ${all.length} times.`,
          hint: `Give it once. ${describeRange(spec)}`,
        },
      };
    }
    const raw = all[0];
    if (raw === undefined) {
      if (spec.required) return { problem: { message: `The query parameter \`${spec.name}\` is required.`, hint: describeRange(spec) } };
      values[spec.name] = spec.schema.default;
      continue;
    }
    const checked = checkValue(spec, raw);
    if ('problem' in checked) return checked;
    values[spec.name] = checked.value;
  }
  return { values };
}

/** Characters as JSON Schema's maxLength counts them: code points, so an emoji outside the BMP is one, not two. */
function codePoints(value: string): number {
  let n = value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

export function checkValue(spec: ParamSpec, raw: string): { value: string | number } | { problem: ParamProblem } {
  const s = spec.schema;
  const bad = (why: string) => ({ problem: { message: `The query parameter \`${spec.name}\` ${why}.`, hint: describeRange(spec) } });
  if (s.type === 'integer') {
    // A sign and digits make an integer of any size: one past the bounds is out of range, not malformed.
    if (!/^-?[0-9]+$/.test(raw)) return bad(`is not an integer: "${clip(raw)}"`);
    // Digits past a safe integer round, and then compare as more than any maximum; `+ 0` makes -0 a 0.
    const n = Number(raw) + 0;
    if (n < s.minimum || n > s.maximum) return bad(`is ${clip(raw)}; it must be between ${s.minimum} and ${s.maximum}`);
    return { value: n };
  }
  const value = spec.normalise ? spec.normalise(raw) : raw;
  if (s.enum && !s.enum.includes(value)) return bad(`has an unknown value: "${clip(raw)}"`);
  if (s.minLength !== undefined && value.trim().length < s.minLength) return bad(raw.length === 0 ? 'is empty' : 'is blank');
  if (s.maxLength !== undefined && value.length > s.maxLength && codePoints(value) > s.maxLength)
    return bad(`is ${codePoints(value)} characters long`);
  if (s.pattern !== undefined && !new RegExp(s.pattern).test(value)) return bad(`is not in the expected form: "${clip(raw)}"`);
  if (s.format === 'date' && !isCalendarDate(value)) return bad(`is not a date: "${clip(raw)}"`);
  return { value };
}

/**
 * The canonical query string of a request: declared keys in declaration
 * order, defaults left out. It names the precomputed file and `links.self`.
 */
export function canonicalQuery(values: ParamValues, specs: readonly ParamSpec[]): string {
  const parts: string[] = [];
  for (const spec of specs) {
    if (spec.in !== 'query') continue;
    const value = values[spec.name];
    if (value === undefined || value === spec.schema.default) continue;
    parts.push(`${spec.name}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}

function isCalendarDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function clip(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}

/** Tags are lowercase slugs; queries are matched after the same normalisation (D9). */
export function slugify(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
