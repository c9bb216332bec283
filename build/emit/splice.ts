// The documents that show posts' bodies (llms-full.txt, the feeds) after an
// edit of some posts' bodies only (D56): the previous file, with the edited
// posts' sections rendered again and every other byte kept. Such a document
// comes as sections (Sections in core/http.ts), and incremental.ts's plan
// asks for it only when nothing but bodies changed, so every other section
// is the same text it was: the result is byte for byte a full render's
// (test/incremental.test.ts compares it with a clean build).
import { utf8, type Sections } from '../core/http.js';

/** Where each post's section lies in a document's bytes. */
export interface SectionIndex {
  /** The document's size in bytes. */
  size: number;
  /** Per post section, in order: the post's slug, and its byte range [start, end). */
  posts: string[];
  starts: number[];
  ends: number[];
}

/**
 * Where the sections lie in `body`, their text encoded as UTF-8. Found by
 * walking the bytes, each section as many UTF-16 units as its text: measuring
 * each text's UTF-8 length instead took 0.4 s per 37 MB document.
 */
export function indexSections(sections: Sections, body: Uint8Array): SectionIndex {
  const index: SectionIndex = { size: body.byteLength, posts: [], starts: [], ends: [] };
  let at = 0;
  for (let i = 0; i < sections.texts.length; i++) {
    const start = at;
    // A lead byte starts a code point: four bytes are two UTF-16 units (a surrogate pair), the others one.
    for (let units = sections.texts[i]!.length; units > 0 && at < body.length;) {
      const b = body[at]!;
      at += b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
      units -= b >= 0xf0 ? 2 : 1;
    }
    const post = sections.posts[i];
    if (post != null) {
      index.posts.push(post);
      index.starts.push(start);
      index.ends.push(at);
    }
  }
  if (at !== body.byteLength)
    throw new Error(`folio: a document's sections end at byte ${at} of its ${body.byteLength}; report this as a bug (emit/splice.ts).`);
  return index;
}

/**
 * `previous` (the file `index` describes) with the sections of the posts in
 * `changed` replaced by `render(slug)`, as the parts whose concatenation is
 * the new file: views of `previous` between new sections. Never joined into
 * one buffer: at 10,000 posts the three documents are some 90 MB, and a copy
 * of them cost more than the rest of the splice. Null when `previous` is not
 * that file.
 */
export function spliceSections(
  previous: Uint8Array,
  index: SectionIndex,
  changed: ReadonlySet<string>,
  render: (slug: string) => string,
): { parts: Uint8Array[]; size: number; index: SectionIndex } | null {
  if (previous.byteLength !== index.size) return null;
  const parts: Uint8Array[] = [];
  const next: SectionIndex = { size: 0, posts: index.posts, starts: new Array(index.posts.length), ends: new Array(index.posts.length) };
  let from = 0;
  let shift = 0;
  for (let k = 0; k < index.posts.length; k++) {
    const start = index.starts[k]!;
    const end = index.ends[k]!;
    next.starts[k] = start + shift;
    if (changed.has(index.posts[k]!)) {
      // A buffer of its own (not Node's shared pool), so a writing thread may take it.
      const text = utf8(render(index.posts[k]!));
      parts.push(previous.subarray(from, start), text);
      from = end;
      shift += text.byteLength - (end - start);
    }
    next.ends[k] = end + shift;
  }
  parts.push(previous.subarray(from));
  next.size = index.size + shift;
  return { parts, size: next.size, index: next };
}
