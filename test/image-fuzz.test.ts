// Image files through the real CLI (D44, D45): a post's figure and the
// profile's photo, cut, flipped, replaced by random bytes or another format,
// or named by a path that leaves the content folder or does not exist. A
// build either succeeds, or exits 1 with every problem at path:line:column
// and a hint, naming the file that names the image, and leaves the previous
// dist byte-identical. FOLIO_FUZZ_SEED replays a failing seed.
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzRuns, fuzzSeed, recordFigures } from './helpers/fuzz.js';
import { baseTree, buildCli, stderrViolations, text, writeTree, type Tree } from './helpers/fuzz-site.js';
import { treeHash } from './helpers/site.js';
import { workspace } from './helpers/workspace.js';

const ws = workspace('folio-image-fuzz-');
let base: Tree;

beforeAll(async () => {
  base = await baseTree();
});

/** A valid image file, then a corruption of its bytes or of the path naming it. */
interface ImageCorruption {
  name: string;
  apply(tree: Tree, pic: Buffer): void;
}

const PIC = 'posts/img/pic.png';
const PHOTO = 'me.svg';

function imageCorruptionArb(others: { jpeg: Buffer; svg: Buffer }): fc.Arbitrary<ImageCorruption> {
  return fc.oneof(
    fc.nat().map((cut) => ({
      name: `the PNG cut at ${cut}`,
      apply: (t: Tree, pic: Buffer) => void (t[PIC] = pic.subarray(0, cut % pic.length)),
    })),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => ({
      name: `the PNG with bytes ${flips.map(([at, b]) => `${at}=${b}`).join(',')}`,
      apply: (t: Tree, pic: Buffer) => {
        const bytes = Buffer.from(pic);
        for (const [at, b] of flips) bytes[at % bytes.length] = b;
        t[PIC] = bytes;
      },
    })),
    fc
      .uint8Array({ minLength: 0, maxLength: 2048 })
      .map((bytes) => ({ name: `${bytes.length} random bytes as the PNG`, apply: (t: Tree) => void (t[PIC] = bytes) })),
    fc
      .constantFrom('jpeg', 'svg')
      .map((kind) => ({ name: `${kind} bytes named .png`, apply: (t: Tree) => void (t[PIC] = others[kind as 'jpeg' | 'svg']) })),
    fc
      .constantFrom(
        '<svg',
        '<svg xmlns="http://www.w3.org/2000/svg"><g>',
        'not svg at all',
        '',
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;&b;</svg>',
      )
      .map((svg) => ({
        name: `the photo SVG as ${JSON.stringify(svg)}`,
        apply: (t: Tree) => void (t[PHOTO] = svg),
      })),
    fc.constantFrom('../outside.png', '/../../x.png', './img/missing.png', './img/pic.bmp', '/img/pic.png', '').map((path) => ({
      name: `the post naming "${path}"`,
      apply: (t: Tree) => void (t['posts/first-post.md'] = text(t['posts/first-post.md']!).replace('./img/pic.png', path)),
    })),
  );
}

describe('random image files through the real CLI, over a previous dist (D44, D45)', () => {
  let good: string;
  let tree: Tree;
  let pic: Buffer;
  let others: { jpeg: Buffer; svg: Buffer };

  beforeAll(async () => {
    const { default: sharp } = await import('sharp');
    pic = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    others = {
      jpeg: await sharp({ create: { width: 40, height: 20, channels: 3, background: '#aa0000' } })
        .jpeg()
        .toBuffer(),
      svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle r="10"/></svg>'),
    };
    tree = {
      ...base,
      [PIC]: pic,
      [PHOTO]: others.svg,
      'posts/first-post.md': `${text(base['posts/first-post.md']!)}\n![A blue field](./img/pic.png)\n`,
      'profile.md': text(base['profile.md']!).replace(
        'name: Ada Example',
        `name: Ada Example\nphoto: ./${PHOTO}\nphoto_alt: A drawn circle`,
      ),
    };
    good = join(ws.cwd, 'good-dist');
    await writeTree(join(ws.cwd, 'good'), tree);
    const ok = await buildCli(join(ws.cwd, 'good'), good);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it(
    'never crashes: exit 0, or exit 1 with every problem at path:line:column and a hint and the previous dist byte-identical',
    { timeout: fuzzBudget(180_000) },
    async () => {
      const seed = fuzzSeed();
      const samples = fc.sample(imageCorruptionArb(others), { seed, numRuns: fuzzRuns(6) });
      const before = await treeHash(good);
      let failures = 0;
      let rejected = 0;
      const started = performance.now();
      for (const [i, corruption] of samples.entries()) {
        const t: Tree = { ...tree };
        corruption.apply(t, pic);
        const dir = join(ws.cwd, `case-${i}`);
        await writeTree(dir, t);
        const out = join(ws.cwd, `dist-${i}`);
        await cp(good, out, { recursive: true });
        const result = await buildCli(dir, out);
        const what = `${corruption.name} (seed ${seed})`;
        const bad = result.code === 0 ? [] : [...(result.code === 1 ? [] : [`exit ${result.code}`]), ...stderrViolations(result.stderr)];
        if (result.code === 1) {
          rejected++;
          if (!/(posts\/first-post|profile)\.md:\d+:\d+: /.test(result.stderr)) bad.push('no problem names the file that names the image');
          expect(await treeHash(out), what).toEqual(before);
        }
        if (bad.length) failures++;
        expect(bad, `${what}\n${result.stderr}`).toEqual([]);
        await rm(out, { recursive: true, force: true });
      }
      recordFigures({
        name: 'content: image files (CLI)',
        target: 'folio build over a previous dist',
        inputs: samples.length,
        requests: 0,
        failures,
        seed,
        ms: Math.round(performance.now() - started),
      });
      expect(rejected).toBeGreaterThan(0);
    },
  );
});
