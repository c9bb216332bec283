// The files that show posts' bodies (the llms files, the feeds, the model in
// _folio/site.json) after an edit that changed some of their sections only
// (D56): the previous file, with those sections rendered again (the edited
// posts'; the text around them on a new day, in llms.txt after any body edit,
// and after an edit of a field lists show; the pages' on a new day that
// shows in them, and after such an edit) and every other byte kept.
// Such a file comes as keyed sections (Sections in core/http.ts), and
// incremental.ts's plan splices it only when the rest cannot have changed, so
// every other section is the same text it was: the result is byte for byte a
// full render's (test/incremental-*.test.ts compare it with a clean build).
import { createHash } from 'node:crypto';
import { utf8, type Frame, type Sections } from '../core/http.js';
import type { Edit } from './splice-file.js';

/** Where each keyed section (a post's, a page's: Sections in core/http.ts) lies in a document's bytes. */
export interface SectionIndex {
  /** The document's size in bytes. */
  size: number;
  /** Per keyed section, in order: its key, and its byte range [start, end). */
  keys: string[];
  starts: number[];
  ends: number[];
}

/**
 * Where the sections lie in `body`, their text encoded as UTF-8. Found by
 * walking the bytes, each section as many UTF-16 units as its text: measuring
 * each text's UTF-8 length instead took 0.4 s per 37 MB document.
 */
export function indexSections(sections: Sections, body: Uint8Array): SectionIndex {
  const index: SectionIndex = { size: body.byteLength, keys: [], starts: [], ends: [] };
  let at = 0;
  for (let i = 0; i < sections.texts.length; i++) {
    const start = at;
    // A lead byte starts a code point: four bytes are two UTF-16 units (a surrogate pair), the others one.
    for (let units = sections.texts[i]!.length; units > 0 && at < body.length;) {
      const b = body[at]!;
      at += b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
      units -= b >= 0xf0 ? 2 : 1;
    }
    const key = sections.keys[i];
    if (key != null) {
      index.keys.push(key);
      index.starts.push(start);
      index.ends.push(at);
    }
  }
  if (at !== body.byteLength)
    throw new Error(`folio: a document's sections end at byte ${at} of its ${body.byteLength}; report this as a bug (emit/splice.ts).`);
  return index;
}

/**
 * The edits that turn the file `index` describes into the same document
 * with the sections keyed in `changed` replaced by `render(key)`, and, with
 * `frame`, the text before the first keyed section and after the last
 * replaced by its `head` and `tail`; and the index of the result. Only the
 * new sections are made here: the sink copies the rest from the previous
 * file (splice-file.ts). A frame needs a keyed section to lie between its
 * two parts: null without one.
 */
export function sectionEdits(
  index: SectionIndex,
  changed: ReadonlySet<string>,
  render: (key: string) => string,
  frame?: Frame,
): { edits: Edit[]; index: SectionIndex } | null {
  const count = index.keys.length;
  if (frame && count === 0) return null;
  const edits: Edit[] = [];
  const next: SectionIndex = { size: 0, keys: index.keys, starts: new Array(count), ends: new Array(count) };
  let shift = 0;
  const replace = (start: number, end: number, text: string) => {
    const bytes = utf8(text);
    edits.push({ start, end, bytes });
    shift += bytes.byteLength - (end - start);
  };
  if (frame) replace(0, index.starts[0]!, frame.head);
  for (let k = 0; k < count; k++) {
    const start = index.starts[k]!;
    const end = index.ends[k]!;
    next.starts[k] = start + shift;
    if (changed.has(index.keys[k]!)) replace(start, end, render(index.keys[k]!));
    next.ends[k] = end + shift;
  }
  if (frame) replace(index.ends[count - 1]!, index.size, frame.tail);
  next.size = index.size + shift;
  return { edits, index: next };
}

/**
 * What the build state knows a spliced file by, in place of its ETag (the
 * state's tags only tell whether a file changed between builds): made from
 * the previous file's tag and the edits, so equal tags still mean equal
 * bytes, and never equal to an ETag, which starts with a quote. The file is
 * not read to make it.
 */
export function splicedTag(previous: string, edits: readonly Edit[]): string {
  const hash = createHash('sha1').update(previous);
  for (const { start, end, bytes } of edits) hash.update(`\n${start}-${end}:${bytes.byteLength}\n`).update(bytes);
  return `~${hash.digest('base64')}`;
}
