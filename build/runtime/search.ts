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

/** The sharded index of the deployment's build (`build`, or the head's when not given), read through the host's asset reader. */
export async function openSearch(read: ReadAsset, build?: string): Promise<SearchEngine> {
  return openShardedSearch(read, build ?? (await readHead(read)).build);
}
