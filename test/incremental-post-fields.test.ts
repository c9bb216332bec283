// Incremental builds after edits of a post's listed fields (D56): a title asks again for the shared
// addresses, the post and the posts whose related posts show it; a summary, reading time or date that
// keeps the order the same; a tag edit, everything, and the summary says why. Each output equals a clean build's (D40).
import { readFileSync } from 'node:fs';
import { appendFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSummary } from '../build/summary.js';
import { paint } from '../build/progress.js';
import { incrementalSite, SLOW } from './helpers/incremental.js';
import { cleanBuild, NOW } from './helpers/site.js';

const s = incrementalSite('folio-incremental-fields-');

describe('incremental builds', () => {
  it('after a title edit, asks for the shared addresses, that post and the posts whose related posts show it', SLOW, async () => {
    // The pages whose related posts list bounce-handling, read from the previous output.
    const related = (await readdir(join(s.out, 'blog')))
      .filter((f) => f.endsWith('.html') && f !== 'bounce-handling.html')
      .filter((f) => {
        const page = readFileSync(join(s.out, 'blog', f), 'utf8');
        return /<aside class="related"[\s\S]*?href="\/blog\/bounce-handling"[\s\S]*?<\/aside>/.test(page);
      });
    expect(related.length).toBeGreaterThan(0);
    // Of the same length, so no token estimate moves: llms.txt must be asked for the title alone.
    await s.edit('posts/bounce-handling.md', (t) =>
      t.replace(/^title: .*$/m, 'title: "Bounce Handling: Hard, Soft, and the Ones That Lie"'),
    );
    const r = await s.incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.asked).toBeLessThan(r.stats.targets);
    const pages = r.stats.written.filter((f) => /^blog\/[^/]+\.html$/.test(f)).map((f) => f.slice('blog/'.length));
    expect(pages.sort()).toEqual(['bounce-handling.html', ...related].sort());
    // Lists, tag pages and the documents show the title: asked, the documents spliced with their frames made again.
    expect(r.stats.written).toEqual(expect.arrayContaining(['blog.html', 'blog/tags/email.html', 'feed.xml', 'llms.txt', 'llms-full.txt']));
    expect(r.stats.spliced.sort()).toEqual(['/feed.json', '/feed.xml', '/llms-full.txt', '/llms.txt']);
    await s.expectSameAsClean();
  });

  it('after a summary, reading-time or date edit that keeps the order, the same; after a tag edit, everything', SLOW, async () => {
    await s.edit('posts/bounce-handling.md', (t) =>
      t.replace(/^title: (.*)$/m, 'title: $1\nsummary: "A summary added by the incremental test."'),
    );
    expect((await s.incremental()).stats.full).toBeNull();
    await s.expectSameAsClean();
    // Past the next minute of reading time (220 words a minute).
    await appendFile(join(s.content, 'posts/bounce-handling.md'), `\n${'Another word to read. '.repeat(120)}\n`);
    expect((await s.incremental()).stats.full).toBeNull();
    await s.expectSameAsClean();
    // The newest post a day earlier, still the newest: the feeds' own date moves with it.
    await s.edit('posts/socket-activation-zero-downtime.md', (t) => t.replace(/^date: 2026-10-05$/m, 'date: 2026-10-04'));
    expect((await s.incremental()).stats.full).toBeNull();
    await s.expectSameAsClean();
    await s.edit('posts/bounce-handling.md', (t) => t.replace('  - saas\n', '  - saas\n  - incidents\n'));
    const tagged = await s.incremental();
    // Named as the post's tags: the site's tag list that moved with them follows from them.
    expect(tagged.stats.full).toBe('the tags of bounce-handling changed');
    // The summary says why every response was asked again; a cold build's says nothing of it.
    expect(buildSummary(tagged, 'dist', paint(false))).toContain(`every response asked: ${tagged.stats.full}]`);
    await s.expectSameAsClean();
    const cold = await cleanBuild({ content: s.content, out: join(s.work, 'cold'), now: NOW });
    expect(cold.stats.full).toBe('no previous build');
    expect(buildSummary(cold, 'dist', paint(false))).not.toContain('asked');
  });
});
