// The files the functions answer from (core/edge.ts, D55): the model's head,
// the route table in shards, the post list in chunks, the two not-found
// pages and the change log (D61). Made from the same model and manifest as
// everything else; the search shards come with the search index
// (search-index.ts).
import { createHash, hash } from 'node:crypto';
import {
  EDGE_FORMAT,
  EDGE_HEAD_PATH,
  EDGE_VERSION,
  NOT_FOUND_PATH,
  POST_CHUNK,
  postChunkPath,
  POSTS_PATH,
  routeShard,
  routeShardPath,
  ROUTES_PER_SHARD,
  SEARCH_DOCS_PER_FILE,
  TAG_LENGTH,
  tagAt,
  tagCount,
  type EdgeHead,
  type NotFoundPages,
  type PostChunk,
  type PostsOutline,
  type RouteShard,
  type TaggedFile,
} from '../core/edge.js';
import { CHANGES_PATH } from '../core/files.js';
import type { BuiltManifest } from './manifest.js';
import type { Headers } from '../core/http.js';
import type { Post, Site } from '../core/model.js';
import { notFoundHtml, notFoundMarkdown } from '../core/pages/not-found.js';
import { postItem } from '../core/resources.js';
import type { SiteModel } from '../core/site-model.js';
import type { OutputFile } from './atomic.js';
import type { SiteDigest } from './build-state.js';
import type { PreparedSearch } from './search-index.js';
import { sameLists, type EdgeBefore } from './edge-before.js';

/**
 * A file's content with its tag put first: the tag and the hash the build
 * state knows the file by both come from one SHA-1 of the content without
 * the tag, so the file is hashed once. The same content gives the same
 * bytes in any build; the tag changes with any change of the content.
 */
export function tagged(content: object): TaggedFile {
  const text = JSON.stringify(content);
  const digest = hash('sha1', text, 'base64url');
  const tag = digest.slice(0, TAG_LENGTH);
  // "tag:" keeps it apart from the hashes of whole files the state holds.
  return { tag, body: `{"tag":"${tag}",${text.slice(1)}`, hash: `tag:${digest}` };
}

const TAGGED = new RegExp(`^\\{"tag":"[\\w-]{${TAG_LENGTH}}",`);

/** The hash `tagged` gave a file, from its text (null when it is not such a file): the state's hash of it, when it is the file the state describes. */
export function untaggedHash(text: string): string | null {
  const match = TAGGED.exec(text);
  return match && `tag:${hash('sha1', `{${text.slice(match[0].length)}`, 'base64url')}`;
}

/**
 * The build id: the site's digest (every field of the model, incremental.ts)
 * and the edge format, hashed, so the same content gives the same id (D40),
 * whether folio runs compiled or from its sources. Made from the digest, not
 * from the model's bytes, so a build that splices `_folio/site.json` need not
 * make them.
 */
export function buildId(digest: SiteDigest): string {
  const hash = createHash('sha256').update(`${EDGE_FORMAT} ${EDGE_VERSION}\n${digest.other}\n${digest.clock}\n${digest.changes}\n`);
  for (const slug of digest.order) {
    const post = digest.posts.get(slug)!;
    hash.update(`${slug}\n${post.list}\n${post.body}\n`);
  }
  return hash.digest('hex').slice(0, 20);
}

/** How many route shards a manifest of `targets` routes is split into. */
const shardCount = (targets: number) => Math.max(1, Math.ceil(targets / ROUTES_PER_SHARD));

/** The route shards of the manifest, or those `wanted` only, by number. */
function routeShards(
  manifest: BuiltManifest,
  count: number,
  wanted: (n: number) => boolean = () => true,
): Map<number, Omit<RouteShard, 'tag'>> {
  const shards = new Map<number, { sets: Headers[]; routes: RouteShard['routes']; index: Map<number, number> }>();
  // forEach: a for-of over the entries made an array of each of 31,000 at 10,000 posts.
  manifest.routes.forEach(([file, set, own], target) => {
    const n = routeShard(target, count);
    if (!wanted(n)) return;
    let shard = shards.get(n);
    if (!shard) shards.set(n, (shard = { sets: [], routes: {}, index: new Map() }));
    let local = shard.index.get(set);
    if (local === undefined) shard.index.set(set, (local = shard.sets.push(manifest.header_sets[set]!) - 1));
    shard.routes[target] = own ? [file, local, own] : [file, local];
  });
  return new Map([...shards].map(([n, { sets, routes }]) => [n, { sets, routes }]));
}

/**
 * The route shards, each made, or kept when an edit of bodies alone asked
 * for none of its targets again (edge-before.ts). An empty shard is still
 * written, so that every number below the count names a file.
 */
function* routeFiles(manifest: BuiltManifest, edge: EdgeTags, before: EdgeBefore | null): Generator<OutputFile> {
  const count = shardCount(manifest.routes.size);
  let remade: Set<number> | null = null;
  if (before && tagCount(before.head.routes) === count) {
    remade = new Set([...before.asked].map((target) => routeShard(target, count)));
    for (let n = 0; n < count; n++) if (!before.hashes.has(routeShardPath(n))) remade.add(n);
  }
  const shards = routeShards(manifest, count, remade ? (n) => remade.has(n) : undefined);
  for (let n = 0; n < count; n++) {
    const path = routeShardPath(n);
    if (remade && !remade.has(n)) {
      edge.routes += tagAt(before!.head.routes, n);
      yield { path, kept: before!.hashes.get(path)!.hash };
      continue;
    }
    const file = tagged(shards.get(n) ?? { sets: [], routes: {} });
    edge.routes += file.tag;
    yield { path, ...file };
  }
}

/**
 * The chunks of one list, written as they are made; the tags of all of them,
 * end to end, once done. With `before` (the list's chunk tags in the
 * previous outline), a chunk that holds no post of `before.listed` is the
 * previous build's file.
 */
function* chunks(
  site: Site,
  list: string,
  posts: readonly Post[],
  before?: { tags: string; edge: EdgeBefore },
): Generator<OutputFile, string> {
  let tags = '';
  // At least one, so an empty list still has its chunk 0.
  for (let from = 0; from === 0 || from < posts.length; from += POST_CHUNK) {
    const path = postChunkPath(list, from / POST_CHUNK);
    const shown = posts.slice(from, from + POST_CHUNK);
    const kept = before && !shown.some((p) => before.edge.listed.has(p.slug)) ? before.edge.hashes.get(path)?.hash : undefined;
    if (kept !== undefined) {
      tags += tagAt(before!.tags, from / POST_CHUNK);
      yield { path, kept };
      continue;
    }
    const file = tagged({ items: shown.map((p) => postItem(site, p)) } satisfies Omit<PostChunk, 'tag'>);
    tags += file.tag;
    yield { path, body: file.body, hash: file.hash };
  }
  return tags;
}

/**
 * About how many files the functions' data adds to the output, for the hosts'
 * file limits, known before it is written: the route shards, the post chunks
 * and the search documents exactly, the term shards and vocabulary roughly.
 */
export function edgeFileCount(site: Site, manifest: BuiltManifest): number {
  const chunks = (n: number) => Math.max(1, Math.ceil(n / POST_CHUNK));
  const docs = site.posts.length + site.projects.length + site.services.length;
  return (
    shardCount(manifest.routes.size) +
    chunks(site.posts.length) +
    site.tags.reduce((n, t) => n + chunks(t.count), 0) +
    Math.round(Math.ceil(docs / SEARCH_DOCS_PER_FILE) * 1.25) +
    60
  );
}

/** The tags of the files edgeFiles wrote, for the head (edgeHead). */
export type EdgeTags = Omit<EdgeHead['tags'], 'search'> & { routes: string };

/**
 * The functions' data but the head, each file before the one that names its
 * tag. Made one file at a time as emit() writes them: at 10,000 posts they
 * are some 60 MB of JSON, which held at once were the top of the build's
 * peak memory.
 */
export function* edgeFiles(
  site: Site,
  manifest: BuiltManifest,
  _options: unknown,
  { model, edge, before }: { model: SiteModel; edge: EdgeTags; before: EdgeBefore | null },
): Generator<OutputFile> {
  yield* routeFiles(manifest, edge, before);
  // The lists hold the same posts in the same places: only the chunks that show a changed listed field change.
  const lists = before && sameLists(site, before.outline) ? before : null;
  if (lists && !lists.listed.size) {
    const kept = keptLists(site, lists);
    if (kept) {
      yield* kept;
      edge.posts = lists.head.tags.posts;
      edge.not_found = lists.head.tags.not_found;
      return;
    }
  }
  const all = yield* chunks(site, 'all', site.posts, lists ? { tags: lists.outline.chunks, edge: lists } : undefined);
  const tags: PostsOutline['tags'] = [];
  for (const [i, t] of site.tags.entries()) {
    const listBefore = lists ? { tags: lists.outline.tags[i]![2], edge: lists } : undefined;
    tags.push([t.tag, t.count, yield* chunks(site, String(i), model.tagged(t.tag), listBefore)]);
  }
  const posts = tagged({ total: site.posts.length, chunks: all, tags } satisfies Omit<PostsOutline, 'tag'>);
  edge.posts = posts.tag;
  yield { path: POSTS_PATH, ...posts };
  const notFound = tagged({ html: notFoundHtml(site), markdown: notFoundMarkdown(site) } satisfies Omit<NotFoundPages, 'tag'>);
  edge.not_found = notFound.tag;
  yield { path: NOT_FOUND_PATH, ...notFound };
}

/** The list chunks, the outline and the 404 pages as the previous build wrote them, or null when its state misses one. */
function keptLists(site: Site, before: EdgeBefore): OutputFile[] | null {
  const paths: string[] = [];
  const lists: [string, number][] = [['all', site.posts.length], ...site.tags.map((t, i): [string, number] => [String(i), t.count])];
  for (const [list, posts] of lists) for (let n = 0; n === 0 || n * POST_CHUNK < posts; n++) paths.push(postChunkPath(list, n));
  paths.push(POSTS_PATH, NOT_FOUND_PATH);
  const files = paths.map((path) => ({ path, kept: before.hashes.get(path)?.hash }));
  return files.every((f): f is { path: string; kept: string } => f.kept !== undefined) ? files : null;
}

/** The head of the functions' data, made once every file it names is written (emit/artifacts.ts). */
export function edgeHead(
  site: Site,
  manifest: BuiltManifest,
  _options: unknown,
  { edge, search }: { edge: EdgeTags; search: PreparedSearch },
): OutputFile[] {
  const { bio_html: _html, ...profile } = site.profile;
  const services = site.services.map(({ body_html: _body, ...service }) => service);
  const { routes, ...tags } = edge;
  const head: EdgeHead = {
    format: EDGE_FORMAT,
    version: EDGE_VERSION,
    build: manifest.build,
    site: { config: site.config, versions: site.versions, built_at: site.built_at, profile, services, redirects: site.redirects },
    routes,
    tags: { ...tags, search: search.tag! },
  };
  return [{ path: EDGE_HEAD_PATH, body: JSON.stringify(head) }];
}

/** The change log on its own (D61): the function answering a `since` reads this, not the model. */
export function changesFile(site: Site, _manifest: unknown, _options: unknown, { edge }: { edge: EdgeTags }): OutputFile[] {
  const changes = tagged(site.changes);
  edge.changes = changes.tag;
  return [{ path: CHANGES_PATH, ...changes }];
}
