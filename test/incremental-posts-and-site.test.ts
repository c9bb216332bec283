// Incremental builds after posts are added, removed, drafted or scheduled, and after edits outside the
// posts: the profile, a project, the API lifecycle in site.yaml and the clock that passes its sunset
// (D56). Each output equals a clean build's (D40).
import { appendFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIncremental, SLOW, type IncrementalFixture } from './helpers/incremental.js';

let site: IncrementalFixture;
let content: string;
let incremental: IncrementalFixture['incremental'];
let expectSameAsClean: IncrementalFixture['expectSameAsClean'];
let edit: IncrementalFixture['edit'];

beforeAll(async () => {
  site = await openIncremental('folio-incremental-posts-site-');
  ({ content, incremental, expectSameAsClean, edit } = site);
  // The previous build the first edit is made against.
  await incremental();
}, SLOW.timeout);
afterAll(() => site?.close());

describe('incremental builds', () => {
  it('after adding, removing, drafting and scheduling posts', SLOW, async () => {
    await writeFile(
      join(content, 'posts/a-new-post.md'),
      '---\ntitle: A new post\ndate: 2026-11-20\ntags: [email]\n---\n\nA new post, written by the incremental test. See [bounces](/blog/bounce-handling).\n',
    );
    const added = await incremental();
    expect(added.stats.written).toContain('blog/a-new-post.html');
    await expectSameAsClean();

    await rm(join(content, 'posts/a-new-post.md'));
    const removed = await incremental();
    expect(removed.stats.removed).toContain('blog/a-new-post.html');
    await expectSameAsClean();

    await edit('posts/short-lived-ssh-certificates.md', (t) => t.replace(/^date: .*$/m, 'date: 2027-05-01'));
    await incremental();
    await expectSameAsClean();

    await edit('posts/ci-cost-per-merged-pull-request.md', (t) => t.replace(/^---\n/, '---\ndraft: true\n'));
    await incremental();
    await expectSameAsClean();
  });

  it('after edits outside the posts: profile, a project, the API lifecycle, the clock', SLOW, async () => {
    await edit('profile.md', (t) => t.replace(/^headline: .*$/m, 'headline: "Platform engineer, edited by a test"'));
    expect((await incremental()).stats.full).toMatch(/outside the posts/);
    await expectSameAsClean();

    await edit('projects/bouncedesk.md', (t) => `${t}\nA sentence added by the incremental test.\n`);
    await incremental();
    await expectSameAsClean();

    await appendFile(
      join(content, 'site.yaml'),
      'api:\n  versions:\n    v1: { deprecated: 2026-10-01, sunset: 2027-06-01, successor: v2 }\n',
    );
    await incremental();
    await expectSameAsClean();

    const later = new Date('2027-07-01T00:00:00Z');
    expect((await incremental(later)).stats.full).toMatch(/outside the posts/);
    await expectSameAsClean(later);
  });
});
