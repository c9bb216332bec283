// The run-time search opener (D12), a module of its own: build/runtime/handler.ts
// loads it with import() on the first search only, so an isolate that never
// searches never loads the tokenizer and stemmer. It opens the sharded index
// (core/search/sharded.ts): the head, then per query the shards it needs.
// Nothing the build alone needs (unified, gray-matter, yaml, Orama's index) may
// be imported from here.
import { readHead, type ReadAsset } from './edge.js';
import type { SearchEngine } from '../core/runtime.js';
import { openShardedSearch } from '../core/search/sharded.js';

export type { ReadAsset };

/** The sharded index whose head carries `tag` (the edge head's for it, read here when not given), through the host's asset reader. */
export async function openSearch(read: ReadAsset, tag?: string): Promise<SearchEngine> {
  return openShardedSearch(read, tag ?? (await readHead(read)).tags.search);
}
