// The stored documents of the index (D12): what a hit shows, and the text
// its snippet is cut from. Three quarters of the index file is their text,
// and JSON.parse reads a string at a few nanoseconds a character, so they
// are written as one string that needs no JSON escape at all: an opener can
// then cut it out of the file's text before JSON.parse (./engine.ts), and a
// document is decoded only when it is a hit.
import type { StoredDoc } from './format.js';

/**
 * How the documents string begins. No field can produce "~~" (an escape is
 * "~" and a hex digit or "u"), and no other string of the index starts with
 * it, so `"docs":"~~folio-docs~~` occurs once in an index file.
 */
export const DOCS_MARK = '~~folio-docs~~';
/** Before each document. */
const DOC = '^';
/** Between the fields of a document. */
const FIELD = '|';
const FIELDS = 7;

/** What JSON would escape, the escape and separators themselves, and everything beyond ASCII (which would make the decoded index text two bytes a character). */
const UNSAFE = /[\x00-\x1f"\\~|^\x7f-\uffff]/g;
const ESCAPE = /~(u[0-9a-f]{4}|[0-9a-f]{2})/g;

function escapeField(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `~${code.toString(16).padStart(2, '0')}` : `~u${code.toString(16).padStart(4, '0')}`;
  });
}

function unescapeField(text: string): string {
  return text.includes('~')
    ? text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex[0] === 'u' ? hex.slice(1) : hex, 16)))
    : text;
}

/**
 * The stored documents as one string of printable ASCII without `"` or `\`:
 * the mark, the number of documents, then each document in internal id
 * order as "^" and its fields joined by "|", with "~" escapes for anything
 * else ("~0a" a newline, "~u2019" a ’).
 */
export function encodeDocs(docs: readonly StoredDoc[]): string {
  return DOCS_MARK + docs.length + docs.map(encodeDoc).join('');
}

function encodeDoc(doc: StoredDoc): string {
  return DOC + doc.map(escapeField).join(FIELD);
}

/**
 * encodeDocs' text; a document is decoded on first use and kept. With
 * documents put in (`with`), the text stays the one it was read from, and
 * the new text is only ever written in pieces: at 10,000 posts the stored
 * documents are 12 MB, and copying them into one string again would cost
 * the search thread 0.1-0.4 s of an edit.
 */
export class DocLines {
  readonly count: number;
  private readonly starts: Int32Array;
  private readonly parsed: (StoredDoc | undefined)[] = [];
  private readonly replaced: ReadonlyMap<number, StoredDoc> | null;

  /** Throws a TypeError when `text` is not encodeDocs' output. */
  constructor(
    private readonly text: string,
    patch?: { of: DocLines; replaced: ReadonlyMap<number, StoredDoc> },
  ) {
    if (patch) {
      ({ count: this.count, starts: this.starts } = patch.of);
      this.replaced = patch.replaced;
      return;
    }
    if (typeof text !== 'string' || !text.startsWith(DOCS_MARK)) throw new TypeError('the stored documents are not in folio’s format');
    const first = text.indexOf(DOC);
    const count = text.slice(DOCS_MARK.length, first === -1 ? undefined : first);
    if (!/^\d+$/.test(count)) throw new TypeError('the stored documents do not say how many they are');
    this.count = Number(count);
    this.starts = docStarts(text, this.count);
    this.replaced = null;
  }

  /** The document of internal id `id` (1-based, as Orama numbers them). */
  get(id: number): StoredDoc | undefined {
    if (!(id >= 1 && id <= this.count)) return undefined;
    let doc = this.replaced?.get(id) ?? this.parsed[id];
    if (doc === undefined) {
      const { starts } = this;
      const fields = this.text.slice(starts[id - 1]! + 1, starts[id]!).split(FIELD);
      if (fields.length !== FIELDS) throw new TypeError(`stored document ${id} has ${fields.length} fields, not ${FIELDS}`);
      doc = this.parsed[id] = fields.map(unescapeField) as StoredDoc;
    }
    return doc;
  }

  /** These documents with those of `replaced` (internal id → document) in their place. */
  with(replaced: ReadonlyMap<number, StoredDoc>): DocLines {
    for (const id of replaced.keys())
      if (!(id >= 1 && id <= this.count)) throw new RangeError(`there is no stored document ${id} of ${this.count} to replace`);
    return new DocLines(this.text, { of: this, replaced: new Map([...(this.replaced ?? []), ...replaced]) });
  }

  /**
   * encodeDocs' text of these documents, in pieces to be written one after
   * the other: the text read, or its stretches between the documents put in
   * and their own text.
   */
  pieces(): string[] {
    const { starts, text, replaced } = this;
    if (!replaced) return [text];
    const pieces: string[] = [];
    let from = 0;
    for (const id of [...replaced.keys()].sort((a, b) => a - b)) {
      pieces.push(text.slice(from, starts[id - 1]!), encodeDoc(replaced.get(id)!));
      from = starts[id]!;
    }
    pieces.push(text.slice(from));
    return pieces;
  }
}

/** Where each document's "^" is, and the end of the text after the last. */
function docStarts(text: string, count: number): Int32Array {
  const starts = new Int32Array(count + 1);
  let n = 0;
  for (let at = text.indexOf(DOC); at !== -1; at = text.indexOf(DOC, at + 1)) {
    if (n === count) throw new TypeError(`the stored documents hold more than the ${count} they announce`);
    starts[n++] = at;
  }
  if (n !== count) throw new TypeError(`the stored documents hold ${n} of the ${count} they announce`);
  starts[count] = text.length;
  return starts;
}
