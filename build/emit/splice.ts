// The documents that show posts' bodies (llms-full.txt, the feeds) after an
// edit of some posts' bodies only (D56): the previous file, with the edited
// posts' sections rendered again and every other byte kept. Such a document
// comes as sections (Sections in core/http.ts), and incremental.ts's plan
// asks for it only when nothing but bodies changed, so every other section
// is the same text it was: the result is byte for byte a full render's
// (test/incremental.test.ts compares it with a clean build).
import type { Sections } from '../core/http.js';

/** Where each post's section lies in a document's bytes. */
export interface SectionIndex {
  /** The document's size in bytes. */
  size: number;
  /** Per post section, in order: the post's slug, and its byte range [start, end). */
  posts: string[];
  starts: number[];
  ends: number[];
}

export function indexSections(sections: Sections): SectionIndex {
  const index: SectionIndex = { size: 0, posts: [], starts: [], ends: [] };
  let at = 0;
  for (let i = 0; i < sections.texts.length; i++) {
    const end = at + Buffer.byteLength(sections.texts[i]!);
    const post = sections.posts[i];
    if (post != null) {
      index.posts.push(post);
      index.starts.push(at);
      index.ends.push(end);
    }
    at = end;
  }
  index.size = at;
  return index;
}

/**
 * `previous` (the file `index` describes) with the sections of the posts in
 * `changed` replaced by `render(slug)`; null when `previous` is not that file.
 */
export function spliceSections(
  previous: Uint8Array,
  index: SectionIndex,
  changed: ReadonlySet<string>,
  render: (slug: string) => string,
): { body: Uint8Array; index: SectionIndex } | null {
  if (previous.byteLength !== index.size) return null;
  const pieces: Uint8Array[] = [];
  const next: SectionIndex = { size: 0, posts: index.posts, starts: new Array(index.posts.length), ends: new Array(index.posts.length) };
  let from = 0;
  let shift = 0;
  for (let k = 0; k < index.posts.length; k++) {
    const start = index.starts[k]!;
    const end = index.ends[k]!;
    next.starts[k] = start + shift;
    if (changed.has(index.posts[k]!)) {
      const text = Buffer.from(render(index.posts[k]!));
      pieces.push(previous.subarray(from, start), text);
      from = end;
      shift += text.byteLength - (end - start);
    }
    next.ends[k] = end + shift;
  }
  pieces.push(previous.subarray(from));
  const body = Buffer.concat(pieces);
  next.size = body.byteLength;
  return { body, index: next };
}
