// The stored documents of the index (D12): what a hit shows, and the text
// its snippet is cut from. Three quarters of the index file is their text,
// so they are written as one string, a JSON array per line, and a loaded
// index parses a line only when its document is a hit.
import type { StoredDoc } from './format.js';

/** Characters JSON would keep as they are but that make the whole index text two bytes a character once decoded. */
const NON_ASCII = /[\u007f-\uffff]/g;

/**
 * The stored documents as one string: a JSON array per line, in internal id
 * order, with every character beyond ASCII written as a \u escape. Opening
 * the index then parses one string instead of seven per document (allocating
 * them was most of the open), the file stays ASCII so it decodes at a byte a
 * character, and a document is parsed only when it is a hit.
 */
export function encodeDocs(docs: readonly StoredDoc[]): string {
  return docs.map((doc) => JSON.stringify(doc).replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('\n');
}

/** encodeDocs' text; each line is parsed on first use and kept. */
export class DocLines {
  private readonly starts: Int32Array;
  private readonly parsed: (StoredDoc | undefined)[] = [];

  constructor(private readonly text: string) {
    if (typeof text !== 'string') throw new TypeError('the stored documents are not a string');
    this.starts = text === '' ? new Int32Array(1) : lineStarts(text);
  }

  get count(): number {
    return this.starts.length - 1;
  }

  /** The document of internal id `id` (1-based, as Orama numbers them). */
  get(id: number): StoredDoc | undefined {
    const { starts } = this;
    if (!(id >= 1 && id < starts.length)) return undefined;
    return (this.parsed[id] ??= JSON.parse(this.text.slice(starts[id - 1]!, starts[id]! - 1)) as StoredDoc);
  }
}

/** Where each line of `text` begins, and one past its end: JSON escapes every newline inside a string, so each one ends a document. */
function lineStarts(text: string): Int32Array {
  const starts: number[] = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  starts.push(text.length + 1);
  return Int32Array.from(starts);
}
