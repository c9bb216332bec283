// Bodies whose site-root links are made absolute (D53): the API, the twins,
// the feeds and MCP hand the Markdown to readers with no base URL. The copy
// makes its body when it is first read, so a cached body stays in its record
// file until a response shows it (emit/record-shard.ts): a one-post edit
// shows few of them.
import type { Read } from './content/kinds.js';
import { absoluteAt } from './core/absolute.js';
import { markMadeFrom, type Derived } from './derived.js';

const ABSOLUTE = Symbol('folio.site-absolute.body');

/** What a copy makes its body from. */
interface Absolute {
  from: Record<string, unknown>;
  offsets: readonly number[];
  siteUrl: string;
  body?: string;
}

/**
 * One getter per field name, shared by every copy: with a getter of their
 * own, or added over a copied property, copies fall into V8's slow
 * dictionary mode, each with a shape of its own.
 */
const getters = new Map<PropertyKey, PropertyDescriptor>();
function absoluteBody(field: PropertyKey): PropertyDescriptor {
  let getter = getters.get(field);
  if (!getter)
    getters.set(
      field,
      (getter = {
        get(this: Record<symbol, Absolute>) {
          const a = this[ABSOLUTE]!;
          return (a.body ??= absoluteAt(a.from[field as string] as string, a.offsets, a.siteUrl));
        },
        enumerable: true,
        configurable: true,
      }),
    );
  return getter;
}

/**
 * The value with its Markdown body's site-root links made absolute. A new
 * object when anything changes; the read value is shared (cache, folio
 * dev's memo) and never modified. With `derived`, a value made before is
 * returned again, so a post that did not change is the same object in the
 * next model (and its digest is not computed again).
 */
export function withAbsoluteLinks<T extends object, K extends keyof T>(read: Read<T>, field: K, siteUrl: string, derived?: Derived): T {
  const offsets = read.links.flatMap((l) => (l.offset === undefined ? [] : [l.offset]));
  if (!offsets.length) return read.value;
  const known = derived?.absolute.get(read.value);
  if (known?.siteUrl === siteUrl) return known.value as T;
  const from = read.value as Record<PropertyKey, unknown>;
  // The two symbols first, so copies take their own branch of shapes rather than the read values'.
  const value: Record<PropertyKey, unknown> = {};
  markMadeFrom(value, from);
  Object.defineProperty(value, ABSOLUTE, { value: { from, offsets, siteUrl } satisfies Absolute });
  // Each property as it is, not its value: a cached text is read when asked for (record-shard.ts).
  const properties = Object.getOwnPropertyDescriptors(from);
  for (const name of Reflect.ownKeys(properties)) {
    const property = properties[name as string]!;
    if (name === field) Object.defineProperty(value, name, absoluteBody(name));
    else if (typeof name === 'string' && 'value' in property && property.enumerable && property.writable) value[name] = property.value;
    else Object.defineProperty(value, name, property);
  }
  derived?.absolute.set(read.value, { siteUrl, value });
  return value as T;
}
