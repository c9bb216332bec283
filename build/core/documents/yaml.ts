// A small deterministic JSON → YAML 1.2 emitter for openapi.yaml. The core
// may not import the `yaml` package (it is build-only), and the OpenAPI
// document is plain JSON data: maps, arrays, strings, numbers, booleans, null.
import { unicode } from '../unicode.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Strings that read back as the same string in YAML 1.1 and 1.2 without
 * quotes: a letter, "_", "$" or "/" first (never an indicator or a digit),
 * then no flow indicators, backslashes or control characters.
 */
const PLAIN = unicode('^[\\p{L}_$/][\\p{L}\\p{N}\\p{M}_$/.()\\-–— ,;:\'"!?#&*@%+=~<>|’“”…]*$');
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n)$/i;
/** Sequences that would end or comment out a plain scalar. */
const BREAKS = /: | #|:$| $/;

function scalar(value: null | boolean | number | string): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot write ${value} as YAML: the OpenAPI document must hold only finite numbers.`);
    return JSON.stringify(value);
  }
  return string(value);
}

function string(value: string): string {
  if (PLAIN().test(value) && !RESERVED.test(value) && !BREAKS.test(value)) return value;
  // A JSON string is a valid YAML double-quoted scalar once the characters
  // YAML does not allow raw (DEL, C1 controls, line/paragraph separators, BOM) are escaped too.
  return JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isEmpty(value: Json): boolean {
  return Array.isArray(value) ? value.length === 0 : typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

function inline(value: Json): string | null {
  if (value === null || typeof value !== 'object') return scalar(value);
  if (isEmpty(value)) return Array.isArray(value) ? '[]' : '{}';
  return null;
}

/** The lines of a non-empty map or array, at indent 0. */
function block(value: Json[] | { [key: string]: Json }): string[] {
  const lines: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const one = inline(item);
      if (one !== null) {
        lines.push(`- ${one}`);
        continue;
      }
      const [first, ...rest] = block(item as Json[] | { [key: string]: Json });
      lines.push(`- ${first}`, ...rest.map((l) => `  ${l}`));
    }
    return lines;
  }
  for (const [key, item] of Object.entries(value)) {
    const one = inline(item);
    if (one !== null) {
      lines.push(`${string(key)}: ${one}`);
      continue;
    }
    lines.push(`${string(key)}:`, ...block(item as Json[] | { [key: string]: Json }).map((l) => `  ${l}`));
  }
  return lines;
}

export function toYaml(value: unknown): string {
  const data = JSON.parse(JSON.stringify(value)) as Json;
  const one = inline(data);
  return `${one ?? block(data as Json[] | { [key: string]: Json }).join('\n')}\n`;
}
