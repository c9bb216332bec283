// The files the functions answer from (D55): a small head, the route table in
// shards, the post list in fixed-size chunks and the search index in shards,
// all under _folio/edge/. Every file but the head carries a tag made from its
// own content, and the file that points to it names the tag it expects: a
// deployment that mixes builds, or misses a file, is refused with a 500 that
// says which file and how to fix it, never answered wrongly. A file whose
// content an edit leaves alone keeps its bytes, so a rebuild rewrites, and a
// host uploads, only the files that changed.
import { DeploymentError } from './errors.js';
import type { FileRoute } from './files.js';
import type { Headers } from './http.js';
import type { Site } from './model.js';
import { API_PREFIX, pagePath } from './urls.js';

export const EDGE_FORMAT = 'folio-edge';
/** Bump whenever the shape of any file below changes: files of another version are refused. */
export const EDGE_VERSION = 5;

export const EDGE_DIR = '_folio/edge';
export const EDGE_HEAD_PATH = `${EDGE_DIR}/head.json`;
export const NOT_FOUND_PATH = `${EDGE_DIR}/not-found.json`;
export const POSTS_PATH = `${EDGE_DIR}/posts.json`;
export const SEARCH_HEAD_PATH = `${EDGE_DIR}/search.json`;

/** About this many routes per route shard, whatever the size of the site. */
export const ROUTES_PER_SHARD = 64;
/** Post list items per chunk: a page of the default size reads one or two. */
export const POST_CHUNK = 20;
/** Stored search documents per file: a page of hits reads at most one file per hit. */
export const SEARCH_DOCS_PER_FILE = 16;

export const routeShardPath = (n: number) => `${EDGE_DIR}/routes/${n}.json`;
/** `list` is "all" or the position of the tag in posts.json. */
export const postChunkPath = (list: string, n: number) => `${EDGE_DIR}/posts/${list}-${n}.json`;
export const termShardPath = (n: number) => `${EDGE_DIR}/search/terms-${n}.json`;
export const docsPath = (n: number) => `${EDGE_DIR}/search/docs-${n}.json`;
/** Vocabulary words by their first (`f`) or last (`l`) letter, named by its char code. */
export const vocabularyPath = (end: 'f' | 'l', letter: string) =>
  `${EDGE_DIR}/search/vocabulary-${end}${letter.charCodeAt(0).toString(36)}.json`;

/** Characters in a file's tag (base64url of a SHA-1 of its content): 48 bits, against a mistake, not an attacker. */
export const TAG_LENGTH = 8;

/** The nth tag of a list of tags written end to end (a shorter text than an array of them). */
export const tagAt = (tags: string, n: number) => tags.slice(n * TAG_LENGTH, (n + 1) * TAG_LENGTH);

/** How many tags a list of tags written end to end holds. */
export const tagCount = (tags: string) => tags.length / TAG_LENGTH;

/** What every request may need: the model's head and how the rest is split. */
export interface EdgeHead {
  format: typeof EDGE_FORMAT;
  version: number;
  build: string;
  /** Small whatever the number of posts: the services come along for the availability check (D60), the redirects for moved addresses (D48; one per alias). */
  site: Pick<Site, 'config' | 'versions' | 'built_at' | 'profile' | 'services' | 'redirects'>;
  /** The tag of each route shard, end to end (tagAt): as many as there are shards. */
  routes: string;
  /** The tags of the other files the head points to. */
  tags: { posts: string; not_found: string; search: string; changes: string };
}

/** A route shard: targets → [file, header set, own headers] as in the manifest, and the header sets its routes use. */
export interface RouteShard {
  tag: string;
  sets: Headers[];
  routes: Record<string, FileRoute>;
}

/** The post list's outline: how many posts and the tags of their chunks, and each tag with its count and chunks (its position names them). */
export interface PostsOutline {
  tag: string;
  total: number;
  chunks: string;
  tags: [tag: string, count: number, chunks: string][];
}

export interface PostChunk {
  tag: string;
  items: Record<string, unknown>[];
}

export interface NotFoundPages {
  tag: string;
  html: string;
  markdown: string;
}

/** A file of the edge as the build writes it: its body with its tag, and the hash the build state knows it by. */
export interface TaggedFile {
  tag: string;
  body: string;
  hash: string;
}

/** Puts a file's tag into its body (emit/edge.ts `tagged`; the build's, for node:crypto). */
export type Tagger = (content: object) => TaggedFile;

/**
 * The key a target is hashed by: a twin as its page ("/blog/a.md" as
 * "/blog/a", "/index.md" as "/"), so that negotiating a page against its twin
 * (D21) reads one shard; and a post's API record as the post's page
 * ("/api/v1/posts/a" as "/blog/a"), so that MCP's site_get_post, which
 * answers with the record and the twin (D53), reads one shard too.
 */
function shardKey(target: string): string {
  if (target === '/index.md') return '/';
  if (target.endsWith('.md')) return target.slice(0, -'.md'.length);
  const slug = postRecordSlug(target);
  return slug === null ? target : pagePath.post(slug);
}

/** The slug of a post's API record in any version ("/api/v1/posts/a"), with no query string; else null. */
function postRecordSlug(target: string): string | null {
  if (!target.startsWith(`${API_PREFIX}/`)) return null;
  const version = target.indexOf('/', API_PREFIX.length + 1);
  if (version === -1 || !target.startsWith(POSTS, version)) return null;
  const slug = target.slice(version + POSTS.length);
  return slug === '' || slug.includes('/') || slug.includes('?') ? null : slug;
}

const POSTS = '/posts/';

/** Which route shard holds a target: FNV-1a over the UTF-16 code units of its key (shardKey). */
export function routeShard(target: string, shards: number): number {
  const key = shardKey(target);
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

export const REBUILD =
  'Rebuild the site with `folio build` and deploy the whole output directory, so that every file comes from the same build.';

/** A file that must be there, and is not. */
export function missingFile(file: string): DeploymentError {
  return new DeploymentError(`The deployment is missing ${file}, which this answer needs.`, REBUILD);
}

const decoder = new TextDecoder();

/**
 * Parses a file of the edge and checks that it carries `tag`, the one the
 * file pointing to it expects; throws DeploymentError naming the file when it
 * is missing, unreadable, or from another build.
 */
export function edgeFile<T extends { tag: string }>(file: string, bytes: Uint8Array | null, tag: string): T {
  if (!bytes) throw missingFile(file);
  let value: T;
  try {
    value = JSON.parse(decoder.decode(bytes)) as T;
  } catch {
    throw new DeploymentError(`${file} is not valid JSON.`, REBUILD);
  }
  if (typeof value !== 'object' || value === null || value.tag !== tag) {
    throw new DeploymentError(
      `${file} comes from another build (tag ${JSON.stringify((value as { tag?: unknown } | null)?.tag ?? null)}, where this deployment's other files expect ${tag}) and cannot be used with them.`,
      REBUILD,
    );
  }
  return value;
}
