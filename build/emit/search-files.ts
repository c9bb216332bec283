// The files of one build's search index (D12, D55): the index file, the
// engine of record, and its shards for the functions. After a patch
// (search-patch.ts) the shards the previous build wrote the same are kept,
// not sent back to be written.
import { createHash } from 'node:crypto';
import { docsPath, SEARCH_DOCS_PER_FILE, TAG_LENGTH, tagAt, termShardPath, type TaggedFile } from '../core/edge.js';
import { DocLines, DOCS_MARK } from '../core/search/docs.js';
import { SEARCH_INDEX_FORMAT, SEARCH_INDEX_VERSION, type SearchIndexData } from '../core/search/format.js';
import { searchShards, type KeptShard, type PreviousTerms, type TermShard } from '../core/search/shards.js';
import { tagged, untaggedHash } from './edge.js';
import type { Patched, PreviousIndex, SearchMemo } from './search-patch.js';

/** The index file, its shards (core/search/shards.ts; the head first), the head's tag, and what the next build needs to patch it. */
export interface SearchFiles {
  bytes: Uint8Array;
  shards: (({ path: string } & TaggedFile) | { path: string; kept: string })[];
  tag: string;
  memo: SearchMemo;
}

type SearchShard = ({ path: string } & TaggedFile) | KeptShard;

/**
 * The files of an index (its data, stored documents and vocabulary's words).
 * Given the previous index, the shards it wrote with the same bytes are
 * named as kept; after a patch (search-patch.ts), given what it changed,
 * those are known without being made (the term shards cut again, the files
 * of unchanged documents).
 */
export function searchFiles(
  { data, docs, words }: { data: SearchIndexData; docs: DocLines; words: Map<string, number> },
  documents: number,
  digests: string[],
  tags: string[],
  previous: PreviousIndex | null = null,
  patched?: Pick<Patched, 'changed' | 'touched'>,
): SearchFiles {
  const before = previous?.shards ?? new Map<string, string>();
  const terms = previous && patched ? previousTerms(previous) : null;
  // The functions read these shards; the whole file stays the index of record.
  // Those the previous build wrote the same are named, not sent: at 10,000
  // posts an edit changes some 80 of 800, and the rest are 20 MB of text.
  const [searchHead, ...rest] = searchShards(
    data,
    tagged,
    previous && patched ? keptDocs(previous, patched.changed) : undefined,
    terms ? { previous: terms, touched: patched!.touched, changed: patched!.changed } : undefined,
    docs,
  ) as [{ path: string } & TaggedFile, ...SearchShard[]];
  const shards: SearchFiles['shards'] = [
    searchHead,
    ...rest.map((f) =>
      'kept' in f ? { path: f.path, kept: before.get(f.path)! } : before.get(f.path) === f.hash ? { path: f.path, kept: f.hash } : f,
    ),
  ];
  const { bytes, hash } = indexFile(data, docs, documents);
  return { bytes, shards, tag: searchHead.tag, memo: { hash, digests, tags, words } };
}

/**
 * The index file's bytes and the hash of its data. The data is encoded once,
 * straight into the file's buffer, and hashed there; the head, of a fixed
 * length whatever the hash, goes in front. The stored documents are written
 * in their pieces (DocLines.pieces) where the data's text has a mark in their
 * place: JSON would write them as they are (printable ASCII, no quote or backslash).
 */
function indexFile(data: SearchIndexData, docs: DocLines, documents: number): { bytes: Buffer; hash: string } {
  const mark = JSON.stringify(DOCS_MARK);
  const text = JSON.stringify({ ...data, orama: { ...data.orama, docs: DOCS_MARK } });
  const at = text.indexOf(mark);
  if (at === -1 || text.includes(mark, at + mark.length))
    throw new Error(
      `folio: the search index's data holds ${mark} other than in its documents' place; report this as a bug (emit/search-files.ts).`,
    );
  const [before, after] = [text.slice(0, at + 1), text.slice(at + mark.length - 1)];
  const pieces = docs.pieces();
  const head = (hash: string) =>
    `{"format":${JSON.stringify(SEARCH_INDEX_FORMAT)},"version":${SEARCH_INDEX_VERSION},"hash":"${hash}","documents":${documents},"data":`;
  const start = Buffer.byteLength(head(`sha256:${'0'.repeat(64)}`));
  const tail = '}\n';
  const length = pieces.reduce((n, piece) => n + piece.length, Buffer.byteLength(before) + Buffer.byteLength(after));
  const bytes = Buffer.allocUnsafeSlow(start + length + tail.length);
  let end = start + bytes.write(before, start);
  for (const piece of pieces) end += bytes.write(piece, end, 'latin1');
  end += bytes.write(after, end);
  bytes.write(tail, end);
  const hash = `sha256:${createHash('sha256').update(bytes.subarray(start, end)).digest('hex')}`;
  bytes.write(head(hash), 0);
  return { bytes, hash };
}

/**
 * After a patch, the files of stored documents none of whose documents
 * changed: the previous build's, by the tags its search head gives (the same
 * documents are in the same order, so each file holds the same ones).
 */
function keptDocs(previous: PreviousIndex, changed: readonly number[]): (n: number) => string | null {
  const { docTags, shards } = previous;
  if (!docTags) return () => null;
  const touched = new Set(changed.map((id) => Math.floor((id - 1) / SEARCH_DOCS_PER_FILE)));
  return (n) => {
    const tag = tagAt(docTags, n);
    return !touched.has(n) && tag.length === TAG_LENGTH && shards.has(docsPath(n)) ? tag : null;
  };
}

/**
 * The previous build's term shards as core/search/shards.ts reads them: a
 * file is taken only when it is the one the build state recorded.
 */
function previousTerms({ terms, shards }: PreviousIndex): PreviousTerms | null {
  if (!terms || !terms.firsts.every((_, n) => shards.has(termShardPath(n)))) return null;
  const read = (n: number) => {
    const bytes = terms.files[n];
    if (!bytes) return null;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    return untaggedHash(text) === shards.get(termShardPath(n)) ? (JSON.parse(text) as TermShard).terms : null;
  };
  return { firsts: terms.firsts, tags: terms.tags, read };
}
