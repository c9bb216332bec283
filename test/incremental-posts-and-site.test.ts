// Incremental builds after posts are added, removed, drafted or scheduled, and after edits outside the
// posts: the profile, a project, the API lifecycle in site.yaml and the clock that passes its sunset
// (D56). Each output equals a clean build's (D40).
import { appendFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { incrementalSite, SLOW } from './helpers/incremental.js';

const s = incrementalSite('folio-incremental-posts-site-');

describe('incremental builds', () => {
  it('after adding, removing, drafting and scheduling posts', SLOW, async () => {
    await writeFile(
      join(s.content, 'posts/a-new-post.md'),
      '---\ntitle: A new post\ndate: 2026-11-20\ntags: [email]\n---\n\nA new post, written by the incremental test. See [bounces](/blog/bounce-handling).\n',
    );
    const added = await s.incremental();
    expect(added.stats.written).toContain('blog/a-new-post.html');
    await s.expectSameAsClean();

    await rm(join(s.content, 'posts/a-new-post.md'));
    const removed = await s.incremental();
    expect(removed.stats.removed).toContain('blog/a-new-post.html');
    await s.expectSameAsClean();

    await s.edit('posts/short-lived-ssh-certificates.md', (t) => t.replace(/^date: .*$/m, 'date: 2027-05-01'));
    await s.incremental();
    await s.expectSameAsClean();

    await s.edit('posts/ci-cost-per-merged-pull-request.md', (t) => t.replace(/^---\n/, '---\ndraft: true\n'));
    await s.incremental();
    await s.expectSameAsClean();
  });

  it('after edits outside the posts: profile, a project, the API lifecycle, the clock', SLOW, async () => {
    await s.edit('profile.md', (t) => t.replace(/^headline: .*$/m, 'headline: "Platform engineer, edited by a test"'));
    expect((await s.incremental()).stats.full).toMatch(/outside the posts/);
    await s.expectSameAsClean();

    await s.edit('projects/bouncedesk.md', (t) => `${t}\nA sentence added by the incremental test.\n`);
    await s.incremental();
    await s.expectSameAsClean();

    await appendFile(
      join(s.content, 'site.yaml'),
      'api:\n  versions:\n    v1: { deprecated: 2026-10-01, sunset: 2027-06-01, successor: v2 }\n',
    );
    await s.incremental();
    await s.expectSameAsClean();

    const later = new Date('2027-07-01T00:00:00Z');
    expect((await s.incremental(later)).stats.full).toMatch(/outside the posts/);
    await s.expectSameAsClean(later);
  });
});
