// A shard file of the record cache (record-cache.ts): its records, with the
// long texts of posts and projects (a post's summary and Markdown, and the
// `html` and `text` rendered from a body) out of line after them, read only
// when something reads them. A one-post edit shows no other post's texts: it
// keeps the lists that show the summaries. At 10,000 posts the records a build
// decodes are 8 MB without those texts and 28 MB with the Markdown alone, and
// the heap they make is one the collector moves.
//
// A file is the head's length (4 bytes, little-endian), the head
// (v8.serialize of { entries, ends }: the records, each out-of-line field
// holding the number of its span), then the spans in UTF-8, span i ending at
// ends[i]. A record read from it is the record written, but that those fields
// are read from the file the first time they are read. The file stays open
// for them until no record of it is left, or until the cache writes that
// shard again (atomicWrite renames over it), which first reads every field
// still in it and closes it (detach).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { serialize } from 'node:v8';
import type { DocumentRecord } from '../content/kinds.js';
import { deserializeOwning, withBytesAt } from './whole-file.js';

export type Entries = [string, DocumentRecord][];

/** The fields kept out of line, of the records of these kinds: the long texts, which an edit of another post does not show. */
const OUT_OF_LINE = ['summary', 'content_markdown', 'html', 'text'] as const;
type OutOfLine = (typeof OUT_OF_LINE)[number];
const isOutOfLine = (name: string): name is OutOfLine => (OUT_OF_LINE as readonly string[]).includes(name);
const KINDS: ReadonlySet<string> = new Set(['post', 'project']);

const SPANS = Symbol('folio.record-shard.spans');
/** A record's spans in its file, and the texts read from them (kept here: redefining the field would leave the object in V8's slow dictionary mode). */
type Spans = { file: ShardFile; read?: Partial<Record<OutOfLine, string>> } & Partial<Record<OutOfLine, number>>;
type Value = Record<string | symbol, unknown>;

interface Head {
  entries: Entries;
  ends: number[];
}

/** Closes a shard file once no record can read from it. */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Closed already: nothing is lost.
  }
});

class ShardFile {
  private closed = false;

  constructor(
    readonly path: string,
    private readonly fd: number,
    private readonly tail: number,
    private readonly ends: readonly number[],
  ) {}

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closer.unregister(this);
    closeSync(this.fd);
  }

  has(span: unknown): span is number {
    return typeof span === 'number' && Number.isInteger(span) && span >= 0 && span < this.ends.length;
  }

  text(span: number): string {
    if (this.closed)
      throw new Error(`folio: a record of ${this.path} was read after the file was closed; report this as a bug (emit/record-shard.ts).`);
    const start = span === 0 ? 0 : this.ends[span - 1]!;
    const length = this.ends[span]! - start;
    const bytes = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const read = readSync(this.fd, bytes, done, length - done, this.tail + start + done);
      if (read === 0)
        throw new Error(
          `folio: the record cache file ${this.path} ends before the text it lists; delete ${dirname(this.path)} and build again.`,
        );
      done += read;
    }
    return bytes.toString('utf8');
  }
}

// One getter per field, shared by every record, so that records of a kind keep one shape. A field
// is read from the file once; a value assigned to it (no build does) makes it a plain property.
const accessors = Object.fromEntries(
  OUT_OF_LINE.map((name) => [
    name,
    {
      get(this: Value) {
        const spans = this[SPANS] as Spans;
        return ((spans.read ??= {})[name] ??= spans.file.text(spans[name]!));
      },
      set(this: Value, text: unknown) {
        Object.defineProperty(this, name, { value: text, writable: true, enumerable: true, configurable: true });
      },
      enumerable: true,
      configurable: true,
    },
  ]),
) as Record<OutOfLine, PropertyDescriptor>;

const valueOf = (record: DocumentRecord): Value | null => (KINDS.has(record.kind) && record.read ? (record.read.value as Value) : null);

/** The bytes of a shard file holding `entries`. */
export function shardBytes(entries: Entries): Buffer {
  const spans: Buffer[] = [];
  const ends: number[] = [];
  let end = 0;
  const head = entries.map(([key, record]): [string, DocumentRecord] => {
    const value = valueOf(record);
    if (!value) return [key, record];
    const lined: Value = {};
    for (const name of Object.keys(value)) {
      const field = value[name];
      if (typeof field !== 'string' || !isOutOfLine(name)) lined[name] = field;
      else {
        const bytes = Buffer.from(field, 'utf8');
        spans.push(bytes);
        end += bytes.byteLength;
        lined[name] = ends.push(end) - 1;
      }
    }
    return [key, { ...record, read: { ...record.read!, value: lined } }];
  });
  const headBytes = serialize({ entries: head, ends } satisfies Head);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headBytes.byteLength);
  return Buffer.concat([length, headBytes, ...spans]);
}

/**
 * `value` with its out-of-line fields read from `file` when first read. A
 * new object, its properties added in their order: redefining them on the
 * deserialized one would leave every record in V8's slow dictionary mode. Added one
 * by one, with the shared accessors, records of a kind share one shape, and
 * making them costs a tenth of defining them from descriptors.
 */
function lazyValue(value: Value, file: ShardFile): Value {
  const spans: Spans = { file };
  const lazy: Value = {};
  for (const name of Object.keys(value)) {
    const field = value[name];
    if (!isOutOfLine(name) || typeof field === 'string' || field === undefined) lazy[name] = field;
    else if (!file.has(field)) throw new Error(`${file.path} lists a span it does not hold`);
    else {
      spans[name] = field;
      Object.defineProperty(lazy, name, accessors[name]);
    }
  }
  Object.defineProperty(lazy, SPANS, { value: spans });
  return lazy;
}

/** The out-of-line fields of a record's value read from its file so far: what a build has had to read. */
export function fieldsRead(value: object): string[] {
  const spans = (value as Value)[SPANS] as Spans | undefined;
  return OUT_OF_LINE.filter((name) => spans?.read?.[name] !== undefined);
}

/** The records of the shard file at `path`; throws when it cannot be read or is not whole. */
export function readShard(path: string): Entries {
  const fd = openSync(path, 'r');
  let kept = false;
  try {
    const size = fstatSync(fd).size;
    const headLength = withBytesAt(fd, 0, 4, (b) => (b.byteLength === 4 ? b.readUInt32LE(0) : Infinity));
    if (4 + headLength > size) throw new Error(`${path} is cut short`);
    const { entries, ends } = withBytesAt(fd, 4, headLength, deserializeOwning) as Head;
    if (!Array.isArray(entries) || !Array.isArray(ends) || 4 + headLength + (ends.at(-1) ?? 0) !== size)
      throw new Error(`${path} is not a whole shard file`);
    if (!ends.length) return entries;
    const file = new ShardFile(path, fd, 4 + headLength, ends);
    for (const [, record] of entries) {
      const value = valueOf(record);
      if (value) (record.read as { value: Value }).value = lazyValue(value, file);
    }
    closer.register(file, fd, file);
    kept = true;
    return entries;
  } finally {
    if (!kept) closeSync(fd);
  }
}

/**
 * Reads every out-of-line field of these records that is still in its file,
 * then closes the files: given every record of a shard before it is written
 * again, since Windows does not rename over a file that is open.
 */
export function detach(records: Iterable<DocumentRecord>): void {
  const files = new Set<ShardFile>();
  for (const record of records) {
    const value = valueOf(record);
    const spans = value?.[SPANS] as Spans | undefined;
    if (!spans) continue;
    for (const name of OUT_OF_LINE) if (spans[name] !== undefined) void value![name];
    files.add(spans.file);
  }
  for (const file of files) file.close();
}
