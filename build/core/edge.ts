// The files the functions answer from (D55): a small head, the route table in
// shards, the post list in fixed-size chunks and the search index in shards,
// all under _folio/edge/. Every file names the build it belongs to, so a
// deployment that mixes builds, or misses a file, is refused with a 500 that
// says which file and how to fix it, never answered wrongly.
import { DeploymentError } from './errors.js';
import type { FileRoute } from './files.js';
import type { Headers } from './http.js';
import type { Site } from './model.js';
import { API_PREFIX, pagePath } from './urls.js';

export const EDGE_FORMAT = 'folio-edge';
/** Bump whenever the shape of any file below changes: files of another version are refused. */
export const EDGE_VERSION = 3;

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

/** What every request may need: the model's head and how the rest is split. */
export interface EdgeHead {
  format: typeof EDGE_FORMAT;
  version: number;
  build: string;
  /** Small whatever the number of posts: the services come along for the availability check (D60), the redirects for moved addresses (D48; one per alias). */
  site: Pick<Site, 'config' | 'versions' | 'built_at' | 'profile' | 'services' | 'redirects'>;
  /** How many route shards there are. */
  routes: number;
}

/** A route shard: targets → [file, header set, own headers] as in the manifest, and the header sets its routes use. */
export interface RouteShard {
  build: string;
  sets: Headers[];
  routes: Record<string, FileRoute>;
}

/** The post list's outline: how many posts, and each tag with its count (its position names its chunks). */
export interface PostsOutline {
  build: string;
  total: number;
  tags: [tag: string, count: number][];
}

export interface PostChunk {
  build: string;
  items: Record<string, unknown>[];
}

export interface NotFoundPages {
  build: string;
  html: string;
  markdown: string;
}

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
 * Parses a file of the edge and checks that it belongs to `build` (the
 * head's); throws DeploymentError naming the file when it is missing,
 * unreadable, or from another build.
 */
export function edgeFile<T extends { build: string }>(file: string, bytes: Uint8Array | null, build: string): T {
  if (!bytes) throw missingFile(file);
  let value: T;
  try {
    value = JSON.parse(decoder.decode(bytes)) as T;
  } catch {
    throw new DeploymentError(`${file} is not valid JSON.`, REBUILD);
  }
  if (typeof value !== 'object' || value === null || value.build !== build) {
    throw new DeploymentError(
      `${file} comes from another build (build ${JSON.stringify((value as { build?: unknown } | null)?.build ?? null)}, not ${build}) and cannot be used with this deployment's other files.`,
      REBUILD,
    );
  }
  return value;
}
