// The run-time search engine (D12): opens the prebuilt index once and answers
// queries from it alone, in the language it records (./language.ts). No
// build-only dependency may be imported here, and of Orama only the
// tokenizer: the index is Orama's save() output with folio's components
// (./orama.ts), read here by those components' own decoders (./score.ts,
// ./docs.ts) instead of through Orama's create() and load(), which would
// bring Orama's every index, tree and sorter along.
import { twinPath } from '../urls.js';
import type { SearchEngine, SearchHit } from '../runtime.js';
import { DocLines, DOCS_MARK } from './docs.js';
import { searchLanguage, type SearchLanguage } from './language.js';
import { FIELD_BOOST, RELEVANCE, SEARCH_FIELDS, SEARCH_INDEX_FORMAT, SEARCH_INDEX_VERSION, type SearchIndexFile } from './format.js';
import { loadIndex, scoreTokens, type FolioIndex } from './score.js';
import { snippet } from './snippet.js';
import { top } from './top.js';
import { exactNode } from './tree.js';
import { Vocabulary } from './typo.js';

export class SearchIndexError extends Error {
  override name = 'SearchIndexError';
}

/** Where the stored documents begin in an index file's text: only there (./docs.ts). */
const DOCS_AT = `"docs":"${DOCS_MARK}`;

/**
 * The index file's text with its stored documents cut out, and those
 * documents: JSON.parse then reads a quarter of the file, not all of it.
 * The documents string has no JSON escape, so it ends at the next quote.
 * Null when the text has no such string.
 */
function withoutDocs(json: string): { json: string; docs: string } | null {
  const at = json.indexOf(DOCS_AT);
  if (at === -1) return null;
  const start = at + '"docs":"'.length;
  const end = json.indexOf('"', start);
  if (end === -1) return null;
  return { json: json.slice(0, start) + json.slice(end), docs: json.slice(start, end) };
}

/** Checks the envelope of an index file; the message names the problem and the fix. */
function parseIndex(json: string): { file: SearchIndexFile; docs: string } {
  const fix = 'Rebuild the site with `folio build` and deploy all of dist/.';
  let file: Partial<SearchIndexFile>;
  let docs: string | undefined;
  try {
    const cut = withoutDocs(json);
    try {
      file = JSON.parse(cut ? cut.json : json) as Partial<SearchIndexFile>;
      docs = cut?.docs;
    } catch (error) {
      // Whatever made the shorter text invalid, the whole text reports it.
      if (!cut) throw error;
      file = JSON.parse(json) as Partial<SearchIndexFile>;
    }
  } catch (error) {
    throw new SearchIndexError(`The search index is not valid JSON (${(error as Error).message}). ${fix}`);
  }
  if (typeof file !== 'object' || file === null || Array.isArray(file))
    throw new SearchIndexError(`The search index is not a JSON object. ${fix}`);
  if (file.format !== SEARCH_INDEX_FORMAT)
    throw new SearchIndexError(
      `The search index has format ${JSON.stringify(file.format ?? null)}, expected "${SEARCH_INDEX_FORMAT}". ${fix}`,
    );
  if (file.version !== SEARCH_INDEX_VERSION)
    throw new SearchIndexError(`The search index is version ${file.version}; this folio reads version ${SEARCH_INDEX_VERSION}. ${fix}`);
  if (!file.data?.orama || !file.data.vocabulary || typeof file.data.site_url !== 'string')
    throw new SearchIndexError(`The search index has no data. ${fix}`);
  return { file: file as SearchIndexFile, docs: docs ?? file.data.orama.docs };
}

/** Loads a serialized index (the text of `_folio/search-index.json`). Throws SearchIndexError when it cannot be used. */
export function openSearchIndex(json: string): { search(query: string, limit: number): { total: number; hits: SearchHit[] } } {
  const { file, docs } = parseIndex(json);
  const { data } = file;
  try {
    const language = searchLanguage(data.orama.language, data.stop_words);
    return new Engine(loadIndex(data.orama.index), new DocLines(docs), data.site_url, language, data.vocabulary);
  } catch (error) {
    throw new SearchIndexError(
      `The search index could not be loaded (${(error as Error).message}). Rebuild the site with \`folio build\`.`,
    );
  }
}

class Engine implements SearchEngine {
  constructor(
    private readonly index: FolioIndex,
    private readonly docs: DocLines,
    private readonly siteUrl: string,
    private readonly language: SearchLanguage,
    vocabulary: Record<string, string>,
  ) {
    this.vocabulary = new Vocabulary(vocabulary, language.fold);
    this.token = language.tokens();
  }

  private readonly vocabulary: Vocabulary;

  /** A word's index token ("" for a stop word), as the index made it. */
  private readonly token: (word: string) => string;

  private known(token: string): boolean {
    const { indexes } = this.index;
    return SEARCH_FIELDS.some((field) => exactNode(indexes[field]!.node, token) !== undefined);
  }

  /**
   * The query as the index understands it: every word it knows (with the
   * corpus words that are the same without accents, where the language
   * folds), and for each word it does not, the corpus words one typo away.
   */
  private understand(query: string): { words: string[]; tokens: Set<string> } {
    const words: string[] = [];
    for (const word of this.language.words(query)) {
      if (!word) continue;
      const token = this.token(word);
      if (!token) continue;
      if (this.known(token)) {
        words.push(word);
        if (this.language.folds) words.push(...this.vocabulary.corrections(word, undefined, true));
      } else words.push(...this.vocabulary.corrections(word));
    }
    const tokens = new Set(words.map(this.token).filter(Boolean));
    return { words, tokens };
  }

  /** Reused between queries (a search runs to completion before the next starts); zeroed after each use. */
  private scores: Float64Array | undefined;

  search(query: string, limit: number): { total: number; hits: SearchHit[] } {
    const { tokens } = this.understand(query);
    if (tokens.size === 0) return { total: 0, hits: [] };
    // The index component's scoring directly, not Orama's search(): that one
    // sorts every match, copies every hit and formats a BigInt timer, and a
    // page needs only the best `limit`.
    const docsCount = this.docs.count;
    const { scores, matched } = scoreTokens(this.index, [...tokens], SEARCH_FIELDS, FIELD_BOOST, RELEVANCE, docsCount, this.scores);
    this.scores = scores;
    const best = top(matched, (id) => scores[id]!, limit);
    for (const id of matched) scores[id] = 0;
    const hits = best.map(([internalId, score]): SearchHit => {
      const [type, id, title, summary, url, apiUrl, body] = this.docs.get(internalId)!;
      return {
        type,
        id,
        title,
        summary,
        url: this.siteUrl + url,
        markdown_url: this.siteUrl + twinPath(url),
        api_url: this.siteUrl + apiUrl,
        snippet: snippet([body, summary], tokens, this.token, this.language),
        score: Math.round(score * 1000) / 1000,
      };
    });
    return { total: matched.length, hits };
  }
}
