// What an edit of posts keeps of the previous build's edge files (edge.ts).
// Route shards whose targets were not asked again, and the list chunks that
// hold no post whose listed fields changed (none, after an edit of bodies
// alone), are the previous build's bytes: named by the hash the build state
// holds, with the tag the previous head or outline names, instead of made,
// hashed and found the same (at 10,000 posts, 2,200 files and 0.5 s of a
// body edit; 0.2 s of a title edit).
import { hash } from 'node:crypto';
import { EDGE_FORMAT, EDGE_HEAD_PATH, EDGE_VERSION, POSTS_PATH, type EdgeHead, type PostsOutline } from '../core/edge.js';
import type { BuiltManifest } from './manifest.js';
import type { Site } from '../core/model.js';
import type { BuildState } from './build-state.js';
import type { Plan } from './incremental.js';

/** The previous build's edge files, for an edit that kept every post's place and tags. */
export interface EdgeBefore {
  head: EdgeHead;
  outline: PostsOutline;
  /** The hash the previous build wrote each file with (its state's extras). */
  hashes: ReadonlyMap<string, { hash: string }>;
  /** The targets this build asked for again: the route shards of the others are the previous build's. */
  asked: ReadonlySet<string>;
  /** The posts whose fields lists show changed (incremental.ts Plan): the list chunks that hold none of them are the previous build's. */
  listed: ReadonlySet<string>;
}

const decoder = new TextDecoder();

/**
 * The previous build's edge head and post outline, when this build's plan
 * is not to ask for everything (so the posts' order and tags are the
 * previous build's), routes the very targets the previous one did
 * (`targets`, this build's targetsDigest), and the two files are of this
 * format; else null, and every edge file is made.
 */
export async function readEdgeBefore(
  plan: Plan,
  previous: BuildState | null,
  targets: string,
  read: ((path: string) => Promise<Uint8Array | null>) | undefined,
  asked: ReadonlySet<string>,
): Promise<EdgeBefore | null> {
  if (plan.all || !previous?.targets || !read || previous.targets !== targets) return null;
  try {
    const [head, outline] = (await Promise.all(
      [EDGE_HEAD_PATH, POSTS_PATH].map(async (path) => {
        const bytes = await read(path);
        return bytes && JSON.parse(decoder.decode(bytes));
      }),
    )) as [EdgeHead | null, PostsOutline | null];
    if (head?.format !== EDGE_FORMAT || head.version !== EDGE_VERSION || !outline || outline.tag !== head.tags.posts) return null;
    return { head, outline, hashes: previous.extras, asked, listed: plan.listed ?? new Set() };
  } catch {
    return null;
  }
}

/**
 * The manifest's targets in order, hashed. The same targets in the same
 * order, with those not asked for again routed as before, make the same
 * route shards; an edit of bodies alone can still add or drop a target (an
 * image a body starts or stops showing).
 */
export function targetsDigest(manifest: BuiltManifest): string {
  return hash('sha1', [...manifest.routes.keys()].join('\n'), 'base64');
}

/** Whether the previous outline lists the same tags with the same counts, so its chunks are this build's. */
export function sameLists(site: Site, outline: PostsOutline): boolean {
  return (
    outline.total === site.posts.length &&
    outline.tags.length === site.tags.length &&
    site.tags.every((t, i) => outline.tags[i]![0] === t.tag && outline.tags[i]![1] === t.count)
  );
}
