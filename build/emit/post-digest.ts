// What an incremental build compares a post by (PostDigest): a hash of the
// fields lists show, its tags, and a hash of its body. A post's digest is
// made where its record is read, on the rendering threads, and kept in the
// record cache with it, so that a build whose model holds the record's value
// as it is, or a copy with its site-root links made absolute (madeFrom in
// derived.ts), does not hash it again: hashing every post costs a one-post
// edit at 10,000 posts 0.28 s, and reads every cached body from its file.
import { hash } from 'node:crypto';
import type { Source } from '../content/frontmatter.js';
import { readDocument, type DocumentKind, type DocumentRecord } from '../content/kinds.js';
import type { Post } from '../core/model.js';
import { Derived, type PostDigest } from '../derived.js';
import type { ReadContent } from '../site.js';

export function sha1Base64(text: string): string {
  return hash('sha1', text, 'base64');
}

// The body fields: content_markdown, and html and text, which are rendered from it
// and not even read here (a cached post's are read from its file when asked, record-shard.ts).
const BODY_FIELDS: ReadonlySet<string> = new Set(['content_markdown', 'html', 'text']);

export function digestPost(post: Post): PostDigest {
  const list: Record<string, unknown> = {};
  for (const key of Object.keys(post)) if (!BODY_FIELDS.has(key)) list[key] = post[key as keyof Post];
  return { list: sha1Base64(JSON.stringify(list)), tags: JSON.stringify(post.tags), body: sha1Base64(post.content_markdown) };
}

/** readDocument, and a post's digest of the value it read. */
export function readRecord(kind: DocumentKind, source: Source): DocumentRecord {
  const record = readDocument(kind, source);
  if (record.kind === 'post' && record.read) record.digest = digestPost(record.read.value as Post);
  return record;
}

/** The digests the posts' records brought, by their read values: those of the model's posts that it holds as read. */
export function recordDigests(content: ReadContent): Derived {
  const derived = new Derived();
  for (const record of content.posts) if (record.digest && record.read) derived.digests.set(record.read.value, record.digest);
  return derived;
}
