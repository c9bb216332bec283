// Site search (D12): the index format the build writes, and the engine the functions open.
export { openSearchIndex, SearchIndexError } from './engine.js';
export { SEARCH_INDEX_FORMAT, SEARCH_INDEX_VERSION, type SearchIndexFile } from './format.js';
