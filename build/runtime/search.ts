// The run-time search opener (D12), a module of its own: build/runtime/handler.ts
// loads it with import() on the first search only, so an isolate that never
// searches never loads Orama, and one that does loads only this chunk: the
// engine in build/core/search/, Orama and its English stemmer. Nothing the
// build alone needs (unified, gray-matter, yaml) may be imported from here.
import { SEARCH_INDEX_PATH } from '../core/files.js';
import type { SearchEngine } from '../core/runtime.js';
import { openSearchIndex } from '../core/search/engine.js';

/** Reads a file of dist/ by its path relative to dist (no leading slash). */
export type ReadAsset = (path: string) => Promise<Uint8Array | null>;

const decoder = new TextDecoder();

/** The prebuilt index, read through the host's asset reader. */
export async function openSearch(read: ReadAsset): Promise<SearchEngine> {
  const bytes = await read(SEARCH_INDEX_PATH);
  if (!bytes) throw new Error(`${SEARCH_INDEX_PATH} is missing from the deployed files; run \`folio build\` and deploy all of dist/.`);
  return openSearchIndex(decoder.decode(bytes));
}
