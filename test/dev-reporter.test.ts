// folio dev's reporter on its own (test/dev.test.ts reads it through startDev, D1): what a rebuild changed,
// the first files by name, the problems at their lines (D2), images changed (D44), and why a saved post
// is not published (a draft, or dated after the session's clock).
import { describe, expect, it } from 'vitest';
import { reporter } from '../build/dev/reporter.js';
import type { RebuildReport } from '../build/dev/state.js';
import { NOW } from './helpers/site.js';

describe('the reporter', () => {
  const report = (partial: Partial<RebuildReport>): RebuildReport => ({
    ok: true,
    ms: 12.4,
    sources: { added: [], changed: [], removed: [] },
    files: { added: [], changed: [], removed: [] },
    targets: [],
    full: null,
    problems: [],
    ...partial,
  });
  const lines: string[] = [];
  const print = reporter(
    (l) => lines.push(l),
    false,
    NOW,
    () => new Date('2026-11-22T10:11:12'),
  );

  it('says what changed, the first files by name, and the problems at their lines', () => {
    const r = report({
      sources: { added: ['posts/new.md'], changed: ['site.yaml'], removed: [] },
      files: { added: Array.from({ length: 9 }, (_, i) => `f${i}`), changed: ['g'], removed: [] },
      full: 'a change outside the posts',
    });
    print.rebuilt(r, print.trigger(r));
    expect(lines.shift()).toBe(
      '10:11:12 posts/new.md added, site.yaml changed → 1 changed, 9 added, 0 removed in 12 ms (every response asked: a change outside the posts)',
    );
    expect(lines.splice(0, 8)).toEqual([...Array.from({ length: 8 }, (_, i) => `  + f${i}`)]);
    expect(lines.splice(0)).toEqual(['  … and 2 more']);
    print.rebuilt(
      report({ ok: false, problems: [{ file: 'posts/x.md', line: 3, column: 1, message: 'Bad.', hint: 'Fix it.' }] }),
      'posts/x.md changed',
    );
    expect(lines.splice(0)).toEqual([
      '10:11:12 posts/x.md changed → 1 problem; still serving the last good build',
      '  posts/x.md:3:1: Bad.\n    hint: Fix it.',
    ]);
    // A problem of a file or folder as a whole has no line to point at.
    print.rebuilt(report({ ok: false, problems: [{ file: 'content/', line: 0, column: 0, message: 'Gone.', hint: 'Put it back.' }] }), 'x');
    expect(lines.splice(0).slice(1)).toEqual(['  content/: Gone.\n    hint: Put it back.']);
    print.rest(1, 40.2);
    print.rest(null, 0);
    expect(lines.splice(0)).toEqual([
      '  then 1 more file (lists, feeds, model, manifest, search index, host files) in 40 ms',
      '  another change is waiting: the lists, feeds, search index and host files are left to its rebuild',
    ]);
    expect(print.trigger(report({}))).toBe('no content change');
    // A checkout or a folder moved away changes hundreds: the first by name, then how many more.
    const many = (n: number, name: string) => Array.from({ length: n }, (_, i) => `posts/${name}-${i}.md`);
    expect(print.trigger(report({ sources: { added: [], changed: [], removed: many(40, 'gone') } }))).toBe(
      'posts/gone-0.md removed, posts/gone-1.md removed, posts/gone-2.md removed and 37 more removed',
    );
    expect(print.trigger(report({ sources: { added: many(2, 'new'), changed: many(3, 'edited'), removed: many(1, 'gone') } }))).toBe(
      'posts/new-0.md added, posts/new-1.md added, posts/edited-0.md changed and 3 more (2 changed, 1 removed)',
    );
    // Four are named: "and 1 more" would be longer than the name.
    expect(print.trigger(report({ sources: { added: [], changed: many(4, 'edited'), removed: [] } }))).toBe(
      'posts/edited-0.md changed, posts/edited-1.md changed, posts/edited-2.md changed, posts/edited-3.md changed',
    );
    // An image or a folder of them: no content file changed, but the site did (D44).
    expect(print.trigger(report({ images: ['content/posts/img/a.png', 'content/images/'] }))).toBe(
      'content/posts/img/a.png changed, content/images/ changed',
    );
  });

  it("says why a saved post is not published: a draft, or dated after the session's clock (D2)", () => {
    const r = report({
      sources: { added: ['posts/soon.md', 'posts/wip.md'], changed: [], removed: [] },
      held: [
        { file: 'posts/soon.md', date: '2026-11-23' },
        { file: 'posts/wip.md', date: null },
      ],
    });
    print.rebuilt(r, print.trigger(r));
    expect(lines.splice(0).slice(1)).toEqual([
      "  posts/soon.md is dated 2026-11-23, after this session's build clock (2026-11-22, UTC): not published; restart folio dev on that day, or pass --now 2026-11-23, to see it",
      '  posts/wip.md is a draft: not published until draft: true is removed',
    ]);
    // A checkout that brings back many of them names the first, as it does the files.
    const drafts = Array.from({ length: 11 }, (_, i) => ({ file: `posts/wip-${i}.md`, date: null }));
    print.rebuilt(report({ sources: { added: drafts.map((d) => d.file), changed: [], removed: [] }, held: drafts }), 'x');
    const said = lines.splice(0).slice(1);
    expect(said).toHaveLength(9);
    expect(said[7]).toBe('  posts/wip-7.md is a draft: not published until draft: true is removed');
    expect(said[8]).toBe('  … and 3 more posts not published (drafts, or dated after 2026-11-22)');
  });
});
