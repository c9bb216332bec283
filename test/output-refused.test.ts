// Faults (D40): an --out or --cache-dir that would destroy or publish other
// files (an existing file, the content itself, a folder of other work, a
// folder the build reads, the output itself) is refused with exit 1 and a
// clear error before the build writes anything, and every file is kept.
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultsSite, folio } from './helpers/faults.js';
import { treeHash } from './helpers/site.js';

const site = faultsSite();

describe('an output directory that cannot be written (D40)', () => {
  it('--out naming an existing file: refused, and the file is untouched (nothing is lost)', async () => {
    const file = join(site.work, 'notes.txt');
    await writeFile(file, 'my notes');
    const result = await site.build(file);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`cannot write the output directory ${file}: it is a file, not a directory`);
    expect(result.stderr).toMatch(/\n {2}hint: .+Nothing was written\./);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await readFile(file, 'utf8')).toBe('my notes');
  });

  it('--out naming the content itself (a folder that is not a build): refused, and every file is kept', async () => {
    const mine = join(site.work, 'mine');
    await cp(site.content, mine, { recursive: true });
    const before = await treeHash(mine);
    const result = await folio(['build', '--content', mine, '--out', mine, '--now', '2026-11-22']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `cannot write the output directory ${mine}: it holds 3 entries (posts, profile.md, site.yaml) but is not a folio build (no _folio/manifest.json)`,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await treeHash(mine)).toEqual(before);
  });

  it('--out naming a folder of other work: refused before the build writes anywhere, its cache and staging included', async () => {
    const parent = join(site.work, 'desk');
    await mkdir(join(parent, 'letters'), { recursive: true });
    await writeFile(join(parent, 'letters', 'draft.txt'), 'dear client');
    const before = await treeHash(parent);
    const result = await folio(['build', '--content', site.content, '--out', join(parent, 'letters'), '--now', '2026-11-22']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/but is not a folio build .*\n {2}hint: .+Nothing was written\./s);
    // The default cache goes beside the output: a refused build must not have made it.
    expect(await readdir(parent)).toEqual(['letters']);
    expect(await treeHash(parent)).toEqual(before);
  });

  it('--out inside a folder the build reads (static/, posts/): refused before anything is written, so no build publishes the last', async () => {
    const mine = join(site.work, 'inside');
    await cp(site.content, mine, { recursive: true });
    const before = await treeHash(mine);
    for (const [folder, out] of [
      ['static', join(mine, 'static', 'out')],
      ['posts', join(mine, 'posts')],
    ]) {
      const result = await folio(['build', '--content', mine, '--out', out!, '--now', '2026-11-22']);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(
        `cannot write the output directory ${out}: it is inside ${join(mine, folder!)}, which every build reads`,
      );
      expect(result.stderr).toMatch(/hint: Pass an --out outside the content folders/);
    }
    expect(await treeHash(mine)).toEqual(before);
  });

  it('--cache-dir inside static/ or inside the output: refused before anything is written, so no build publishes its cache', async () => {
    const parent = join(site.work, 'cached');
    const mine = join(parent, 'content');
    await cp(site.content, mine, { recursive: true });
    const before = await treeHash(parent);
    const out = join(parent, 'dist');
    for (const [cache, reason] of [
      [
        join(mine, 'static', 'cache'),
        `it is inside ${join(mine, 'static')}, which every build reads, so the next build would read this one and publish it`,
      ],
      [join(out, 'cache'), `it is inside the output directory ${out}, which every build replaces whole`],
    ]) {
      const result = await folio(['build', '--content', mine, '--out', out, '--cache-dir', cache!, '--now', '2026-11-22']);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`cannot use the cache directory ${cache}: ${reason}.`);
      expect(result.stderr).toMatch(/\n {2}hint: Pass a --cache-dir outside .+Nothing was written\./);
      expect(await treeHash(parent)).toEqual(before);
    }
  });
});
