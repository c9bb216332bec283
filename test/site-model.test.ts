// The derived model: assembleSite gives the site with its link set, and
// updateSite's next model (a post's body or title edited) answers every page,
// twin and API address exactly as a model assembled from scratch does, while
// it keeps the indexes of positions (so folio dev's edit does not rebuild them).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import { readDocument } from '../build/content/kinds.js';
import { request } from '../build/core/http.js';
import { respond } from '../build/core/respond.js';
import type { SiteModel } from '../build/core/site-model.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { assembleSite, readContent, type ReadContent } from '../build/site.js';
import { knownPaths } from '../build/site-links.js';
import { updateSite } from '../build/site-update.js';
import { copyContent, NOW } from './helpers/site.js';

let dir: string;
let before: ReadContent;
let model: SiteModel;

beforeAll(async () => {
  dir = await copyContent();
  before = readContent(await loadContent(dir));
  model = assembleSite(before, { now: NOW });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `before` with the post at `index` read again after `edit` of its file; the other records stay the same objects. */
async function edited(index: number, edit: (text: string) => string): Promise<ReadContent> {
  const file = before.posts[index]!.file;
  const path = join(dir, 'posts', file.split('/').pop()!);
  await writeFile(path, edit(await readFile(path, 'utf8')));
  const source = (await loadContent(dir)).posts.find((s) => s.file === file)!;
  const posts = before.posts.slice();
  posts[index] = readDocument('post', source) as ReadContent['posts'][number];
  return { ...before, posts };
}

async function answers(m: SiteModel, targets: string[]): Promise<string[]> {
  const rt = memoryRuntime(m);
  return Promise.all(targets.map(async (t) => new TextDecoder().decode((await respond(request('GET', t), rt)).body ?? new Uint8Array())));
}

describe('the derived model', () => {
  it('comes from assembleSite with the link set its links were checked against', () => {
    expect(model.links).not.toBeNull();
    // Every enumerated address, then the static files and the aliases (D43, D48).
    const extra = [...model.site.static.map((f) => f.path), ...Object.keys(model.site.redirects)];
    expect([...model.links!].sort()).toEqual([...new Set([...knownPaths(model), ...extra])].sort());
    expect(model.links!.has('/blog')).toBe(true);
  });

  it("after a post's body and title edit, answers like a model assembled from scratch, keeping the indexes", async () => {
    const index = before.posts.findIndex((r) => r.read && !r.read.draft && !r.read.images.length && model.post(r.read.value.slug));
    const slug = before.posts[index]!.read!.value.slug;
    const after = await edited(
      index,
      (text) => text.replace(/^title: .*$/m, 'title: "A title edited in place"') + '\n\nA paragraph added at the end.\n',
    );
    const update = updateSite(model, before, after);
    expect(update).not.toBeNull();
    const next = update!.model;
    expect(next.post(slug)!.title).toBe('A title edited in place');
    // The indexes of positions are the previous model's own objects.
    expect(next.posts).toBe(model.posts);
    expect(next.pages).toBe(model.pages);
    const fresh = assembleSite(after, { now: NOW });
    const related = model.site.posts.find((p) => p.slug !== slug && model.related(p).some((r) => r.slug === slug))!;
    const targets = [
      '/blog',
      `/blog/${slug}`,
      `/blog/${slug}.md`,
      `/api/v1/posts/${slug}`,
      `/blog/${related.slug}`,
      `/blog/tags/${next.post(slug)!.tags[0]}`,
      '/llms-full.txt',
      '/sitemap.xml',
    ];
    expect(await answers(next, targets)).toEqual(await answers(fresh, targets));
    expect((await answers(next, [`/blog/${related.slug}`]))[0]).toContain('A title edited in place');
  });

  it("is not derived when a post's tags change: the indexes would not hold", async () => {
    const index = before.posts.findIndex((r) => r.read && !r.read.draft && !r.read.images.length && model.post(r.read.value.slug));
    const after = await edited(index, (text) => text.replace(/^tags:\n(?:[ \t]+- .*\n)+/m, 'tags: [a-new-tag]\n'));
    expect(after.posts[index]!.read!.value.tags).toEqual(['a-new-tag']);
    expect(updateSite(model, before, after)).toBeNull();
  });
});
