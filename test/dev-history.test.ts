// folio dev over an output with a record of earlier builds (D61): the
// removals the record holds stay listed in /api/v1/changes through its
// rebuilds, and the output is the same bytes as folio build makes of it.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDev } from '../build/dev.js';
import { build } from '../build/emit/build.js';
import { copyContent, NOW, tempDir, treeHash } from './helpers/site.js';

const SLOW = { timeout: 240_000 };

describe('folio dev with a record of earlier builds (D61)', () => {
  it('keeps the changes the record holds through its rebuilds, as folio build does', SLOW, async () => {
    const dir = await tempDir('folio-dev-history-');
    const site = await copyContent();
    const dist = join(dir, 'dist');
    const cache = join(dir, '.folio-cache');
    try {
      await build({ content: site, out: dist, now: NOW, cache });
      await rm(join(site, 'posts/short-lived-ssh-certificates.md'));
      await build({ content: site, out: dist, now: NOW, cache });
      const removed = (entries: { id: string; change: string }[]) => entries.filter((e) => e.change === 'removed').map((e) => e.id);
      const listed = async () =>
        (JSON.parse(await readFile(join(dist, 'api/v1/changes.json'), 'utf8')) as { data: { id: string; change: string }[] }).data;
      expect(removed(await listed())).toEqual(['short-lived-ssh-certificates']);
      const session = await startDev({
        content: site,
        out: dist,
        now: NOW,
        cache,
        port: 0,
        host: '127.0.0.1',
        log: () => {},
        debounceMs: 60,
      });
      try {
        expect(removed(await listed())).toEqual(['short-lived-ssh-certificates']);
        // A change outside the posts: the whole model is assembled again.
        const rebuilt = session.nextRebuild();
        const project = join(site, 'projects/jumpcfg.md');
        await writeFile(project, (await readFile(project, 'utf8')).replace(/^status: .*$/m, 'status: sunset'));
        expect((await rebuilt).ok).toBe(true);
        await session.idle();
        expect(removed(await listed())).toEqual(['short-lived-ssh-certificates']);
      } finally {
        await session.close();
      }
      // And the same bytes as folio build makes of that output with that cache.
      const fromDev = await treeHash(dist);
      await build({ content: site, out: dist, now: NOW, cache });
      expect(await treeHash(dist)).toEqual(fromDev);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(site, { recursive: true, force: true });
    }
  });
});
