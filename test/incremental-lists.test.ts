// An edit of a field lists show (a title) on a site whose lists have many
// pages: the build asks again only the list pages that can show the post
// (its place in the whole list and in each of its tags' lists, and its tags'
// pages), and the output still equals a clean build's (D56).
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { writeCorpus } from './helpers/corpus.js';
import { cleanBuild, NOW, tempDir, treeHash } from './helpers/site.js';

const SLOW = { timeout: 300_000 };
const POSTS = 400;
let work: string;
let content: string;

beforeAll(async () => {
  work = await tempDir('folio-incremental-lists-');
  content = await writeCorpus(join(work, 'content'), { posts: POSTS, tags: 3 });
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** The API's list pages in an output, by file: api/v1/posts.json and api/v1/posts@<query>.json (a post's own record is under api/v1/posts/). */
async function listPages(out: string): Promise<string[]> {
  return (await readdir(join(out, 'api', 'v1'))).filter((f) => /^posts(@[^/]*)?\.json$/.test(f)).map((f) => `api/v1/${f}`);
}

describe('an edit of a listed field on a site of many list pages', () => {
  const out = () => join(work, 'dist');
  const cache = () => join(work, '.folio-cache');

  /** Retitles generated post `n`, builds, and checks what was asked and written against the output itself and a clean build. */
  async function retitle(n: number): Promise<void> {
    const name = `generated-${String(n).padStart(5, '0')}`;
    const file = join(content, 'posts', `${name}.md`);
    const title = `Generated report ${n}, retitled`;
    await writeFile(file, (await readFile(file, 'utf8')).replace(`title: "Generated report ${n}"`, `title: "${title}"`));
    const r = await build({ content, out: out(), now: NOW, cache: cache() });
    expect(r.stats.full).toBeNull();
    const lists = await listPages(out());
    // The list pages that show the new title, read from the output: one of the whole list, one of each of its two tags' lists.
    const showing: string[] = [];
    for (const f of lists) if ((await readFile(join(out(), f), 'utf8')).includes(title)) showing.push(f);
    expect(showing.length).toBe(3);
    expect(r.stats.written).toEqual(expect.arrayContaining(showing));
    // Asking every shared target would ask every list page: the others are kept.
    expect(r.stats.asked).toBeLessThan(lists.length);
    const clean = join(work, `clean-${n}`);
    await cleanBuild({ content, out: clean, now: NOW }, { cache: cache(), out: out() });
    expect(await treeHash(out())).toEqual(await treeHash(clean));
    await rm(clean, { recursive: true, force: true });
  }

  it('asks only the list pages that show the post, and equals a clean build', SLOW, async () => {
    await build({ content, out: out(), now: NOW, cache: cache() });
    // 20 posts a page: the whole list, the tag every post has, and three tags of a third each.
    expect((await listPages(out())).length).toBeGreaterThanOrEqual(2 * (POSTS / 20) + 3 * Math.floor(POSTS / 3 / 20));
    // Newest first, so post n is at place POSTS - 1 - n of the whole list (and of the tag every post has):
    // 59 is the first of its page (340), 60 the last of the page before (339).
    await retitle(59);
    await retitle(60);
  });
});
