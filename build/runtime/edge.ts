// SiteData from the precomputed files (core/edge.ts, D55): what the functions
// answer with. A request reads the head, the route shards its targets fall
// in, and only then the records, chunks or search shards its answer needs;
// never the whole model or the whole manifest. core/data.ts answers the same
// questions from the model at build time.
import { API_PREFIX, pagePath, twinPath } from '../core/urls.js';
import { DeploymentError } from '../core/errors.js';
import {
  EDGE_FORMAT,
  EDGE_HEAD_PATH,
  EDGE_VERSION,
  missingFile,
  NOT_FOUND_PATH,
  POST_CHUNK,
  postChunkPath,
  POSTS_PATH,
  REBUILD,
  routeShard,
  routeShardPath,
  tagAt,
  tagCount,
  TAG_LENGTH,
  type EdgeHead,
  type NotFoundPages,
  type PostChunk,
  type PostsOutline,
  type RouteShard,
} from '../core/edge.js';
import type { Reply, Req } from '../core/http.js';
import type { KeptFiles, ReadAsset } from '../core/kept-files.js';
import { CHANGES_PATH, routeHeaders } from '../core/files.js';
import type { ChangeLog, Site } from '../core/model.js';
import type { JsonRecord, SiteData } from '../core/runtime.js';
import { staticTarget, type Route, type RouteLookup } from '../core/static.js';

export type { ReadAsset };

/**
 * The bytes of route shards, post chunks and the 404 pages a handler keeps
 * between requests (core/kept-files.ts): the whole route table of a
 * 10,000-post site is about 6.5 MB. The search shards have a budget of their
 * own (core/search/sharded.ts).
 */
export const KEEP_EDGE_BYTES = 8 * 1024 * 1024;

const decoder = new TextDecoder();

/**
 * The head of the deployment, read on every request; parsed again only when
 * its text changed since the last request of `kept`. Throws
 * DeploymentError when it is missing or of another format.
 */
export async function readHead(read: ReadAsset, kept?: KeptFiles): Promise<EdgeHead> {
  const bytes = await read(EDGE_HEAD_PATH);
  if (!bytes) throw missingFile(EDGE_HEAD_PATH);
  const text = decoder.decode(bytes);
  return kept ? kept.parsed(text, parseHead) : parseHead(text);
}

function parseHead(text: string): EdgeHead {
  let head: EdgeHead;
  try {
    head = JSON.parse(text) as EdgeHead;
  } catch {
    throw new DeploymentError(`${EDGE_HEAD_PATH} is not valid JSON.`, REBUILD);
  }
  if (
    head?.format !== EDGE_FORMAT ||
    head.version !== EDGE_VERSION ||
    typeof head.build !== 'string' ||
    typeof head.routes !== 'string' ||
    head.routes.length === 0 ||
    head.routes.length % TAG_LENGTH !== 0 ||
    typeof head.tags !== 'object' ||
    head.tags === null
  ) {
    throw new DeploymentError(`${EDGE_HEAD_PATH} is not a folio ${EDGE_FORMAT} head of version ${EDGE_VERSION}.`, REBUILD);
  }
  return head;
}

/** The change log (D61), a file of its own that the build writes beside the model, of the build whose head names `tag`. */
export function readChanges(read: ReadAsset, kept: KeptFiles, tag: string): Promise<ChangeLog> {
  return kept.get<ChangeLog & { tag: string }>(read, CHANGES_PATH, tag);
}

/**
 * What the model has beyond its head, as the functions see it: a getter that
 * throws, so a code path that would need the whole model fails loudly (a 500)
 * instead of answering from nothing. Inherited, not own: no copy or spread of
 * the site sees them.
 */
const beyondHead: Partial<Site> = Object.freeze({
  get posts(): never {
    return notInFunctions('posts');
  },
  get projects(): never {
    return notInFunctions('projects');
  },
  get tags(): never {
    return notInFunctions('tags');
  },
  get changes(): never {
    return notInFunctions('changes');
  },
});

function notInFunctions(key: string): never {
  throw new Error(
    `folio: site.${key} is not available in the functions (D55); answer from the runtime's data, or precompute this response in the build.`,
  );
}

/** The model as the functions have it: its head, and for every other part a getter that throws (beyondHead). */
export function headSite(head: EdgeHead): Site {
  return Object.assign(Object.create(beyondHead) as Site, head.site);
}

/**
 * The route table, a shard at a time: a lookup of a shard not read yet records it and misses.
 *
 * This class and EdgeData assign their fields in the constructor and declare
 * them with `declare`: a declared field is an initializer that V8 compiles in
 * the first request of an isolate by parsing the whole class body again.
 */
class Routes {
  declare private readonly head: EdgeHead;
  declare private readonly read: ReadAsset;
  declare private readonly kept: KeptFiles;
  declare private readonly count: number;
  declare private readonly shards: Map<number, RouteShard>;
  declare private readonly wanted: Set<number>;
  declare readonly lookup: RouteLookup;

  constructor(head: EdgeHead, read: ReadAsset, kept: KeptFiles) {
    this.head = head;
    this.read = read;
    this.kept = kept;
    this.count = tagCount(head.routes);
    this.shards = new Map();
    this.wanted = new Set();
    this.lookup = (target) => this.find(target);
  }

  private find(target: string): Route | undefined {
    const n = routeShard(target, this.count);
    const shard = this.shards.get(n);
    if (!shard) {
      this.wanted.add(n);
      return undefined;
    }
    const route = Object.hasOwn(shard.routes, target) ? shard.routes[target] : undefined;
    return route && { file: route[0], headers: routeHeaders(shard.sets, route) };
  }

  private async fetchWanted(): Promise<void> {
    const wanted = [...this.wanted];
    this.wanted.clear();
    await Promise.all(wanted.map((n) => this.load(n)));
  }

  /** A shard, read once while it is kept: lookups made at the same time (a record and its twin) wait for the same read. */
  private async load(n: number): Promise<void> {
    this.shards.set(n, await this.kept.get<RouteShard>(this.read, routeShardPath(n), tagAt(this.head.routes, n)));
  }

  /**
   * core's own rule (staticTarget) over the shards: asked again with the
   * shards its last run missed until it misses none (each run asks for at
   * most three targets: the path, its twin and its canonical query).
   */
  async target(req: Req): Promise<{ target: string; route: Route } | null> {
    for (let round = 0; round < 8; round++) {
      const target = staticTarget(req, this.head.site, this.lookup);
      if (this.wanted.size === 0) return target === null ? null : { target, route: this.lookup(target)! };
      await this.fetchWanted();
    }
    throw new Error('folio: the route table lookup did not settle.');
  }

  async route(target: string): Promise<Route | undefined> {
    let route = this.lookup(target);
    if (this.wanted.size) {
      await this.fetchWanted();
      route = this.lookup(target);
    }
    return route;
  }
}

/**
 * SiteData over the files. A class rather than an object of closures: in a
 * cold isolate V8 compiles a function when it is first called, and a method
 * is compiled alone, so a request compiles only the lookups it makes.
 */
class EdgeData implements SiteData {
  declare private readonly head: EdgeHead;
  declare private readonly read: ReadAsset;
  declare private readonly kept: KeptFiles;
  declare private readonly routes: Routes;

  constructor(head: EdgeHead, read: ReadAsset, kept: KeptFiles) {
    this.head = head;
    this.read = read;
    this.kept = kept;
    this.routes = new Routes(head, read, kept);
  }

  private edgeFile<T extends { tag: string }>(path: string, tag: string): Promise<T> {
    return this.kept.get<T>(this.read, path, tag);
  }

  private async bytesOf(route: Route): Promise<Uint8Array> {
    const bytes = await this.read(route.file);
    if (!bytes) throw missingFile(route.file);
    return bytes;
  }

  private async record(target: string): Promise<JsonRecord | undefined> {
    const route = await this.routes.route(target);
    return route && (JSON.parse(decoder.decode(await this.bytesOf(route))) as JsonRecord);
  }

  async file(req: Req): Promise<Reply | null> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const found = await this.routes.target(req);
    if (!found) return null;
    return { status: 200, headers: { ...found.route.headers }, body: await this.bytesOf(found.route) };
  }

  async posts(tag: string | undefined, offset: number, limit: number): Promise<{ total: number; items: JsonRecord[] }> {
    const outline = await this.edgeFile<PostsOutline>(POSTS_PATH, this.head.tags.posts);
    let list = 'all';
    let total = outline.total;
    let chunks = outline.chunks;
    if (tag !== undefined) {
      const at = outline.tags.findIndex(([t]) => t === tag);
      if (at === -1) return { total: 0, items: [] };
      list = String(at);
      [, total, chunks] = outline.tags[at]!;
    }
    const end = Math.min(total, offset + limit);
    if (offset >= end) return { total, items: [] };
    const first = Math.floor(offset / POST_CHUNK);
    const last = Math.floor((end - 1) / POST_CHUNK);
    const parts = await Promise.all(
      Array.from({ length: last - first + 1 }, (_, i) =>
        this.edgeFile<PostChunk>(postChunkPath(list, first + i), tagAt(chunks, first + i)),
      ),
    );
    const items = parts.flatMap((c) => c.items).slice(offset - first * POST_CHUNK, end - first * POST_CHUNK);
    if (items.length !== end - offset)
      throw new DeploymentError(
        `The chunks ${postChunkPath(list, first)} to ${postChunkPath(list, last)} hold fewer posts than ${POSTS_PATH} announces.`,
        REBUILD,
      );
    return { total, items };
  }

  post(slug: string, version: string): Promise<JsonRecord | undefined> {
    return this.record(`${API_PREFIX}/${version}/posts/${slug}`);
  }

  project(id: string, version: string): Promise<JsonRecord | undefined> {
    return this.record(`${API_PREFIX}/${version}/projects/${id}`);
  }

  async twin(page: string): Promise<string | null> {
    const route = await this.routes.route(twinPath(page));
    return route ? decoder.decode(await this.bytesOf(route)) : null;
  }

  async postTwin(uri: string): Promise<string | null> {
    const base = this.head.site.config.site_url;
    if (!uri.startsWith(`${base}/`)) return null;
    const path = uri.slice(base.length);
    const prefix = pagePath.post('');
    const slug = path.startsWith(prefix) && path.endsWith('.md') ? path.slice(prefix.length, -'.md'.length) : '';
    if (!slug || slug.includes('/') || twinPath(pagePath.post(slug)) !== path) return null;
    const route = await this.routes.route(path);
    return route ? decoder.decode(await this.bytesOf(route)) : null;
  }

  async notFound(markdown: boolean): Promise<string> {
    const pages = await this.edgeFile<NotFoundPages>(NOT_FOUND_PATH, this.head.tags.not_found);
    return markdown ? pages.markdown : pages.html;
  }
}

/** The data of the deployment whose head is `head`, its tagged files kept in `kept` between requests. */
export function assetData(head: EdgeHead, read: ReadAsset, kept: KeptFiles): SiteData {
  return new EdgeData(head, read, kept);
}
