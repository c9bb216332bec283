// Images and the warm rebuild (D44): the same corpus with and without images
// (bench/corpus.js: one post in IMAGE_EVERY shows one of IMAGE_COUNT PNG and
// SVG figures). Each gets a first build (which, with images, runs sharp on
// every figure), then `folio build` of the unchanged site again, several
// times: an unchanged image must cost nothing, so the two warm rebuilds should
// take the same time. Run from bench/run.js, or alone:
//   node bench/images.js 1000 [runs]
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCorpus, IMAGE_COUNT, IMAGE_EVERY } from './corpus.js';
import { measure, median, replacedOutputsGone } from './measure.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const NOW = '2026-11-22';
const ownMs = (stdout) => Number(/, (\d+) ms\)/.exec(stdout)?.[1] ?? NaN);

/** A private copy of the corpus, built once (with images, sharp runs on every figure here). */
async function prepare(size, images, work) {
  const corpus = await ensureCorpus(size, { images });
  const dir = join(work, images ? 'with-images' : 'without-images');
  cpSync(join(corpus, 'content'), join(dir, 'content'), { recursive: true });
  const build = async () => {
    await replacedOutputsGone(dir);
    return measure(
      process.execPath,
      [join(ROOT, 'bin', 'folio.js'), 'build', '--content', join(dir, 'content'), '--out', join(dir, 'dist'), '--now', NOW],
      { cwd: dir },
    );
  };
  const first = await build();
  return { build, done: () => replacedOutputsGone(dir), firstMs: first.ms, firstOwnMs: ownMs(first.stdout), runs: [] };
}

const summary = ({ firstMs, firstOwnMs, runs }) => ({
  firstMs,
  firstOwnMs,
  ms: median(runs.map((r) => r.ms)),
  ownMs: median(runs.map((r) => r.ownMs)),
  peakRss: Math.max(...runs.map((r) => r.peakRss)),
  runs,
});

export async function benchImages({ size, runs, log = console.error }) {
  const work = mkdtempSync(join(tmpdir(), `folio-bench-images-${size}-`));
  try {
    const without = await prepare(size, false, work);
    const withImages = await prepare(size, true, work);
    // Alternated, so load on a shared machine falls on both alike.
    for (let i = 0; i < runs; i++) {
      for (const [name, v] of [
        ['without', without],
        ['with', withImages],
      ]) {
        const r = await v.build();
        v.runs.push({ ms: r.ms, ownMs: ownMs(r.stdout), peakRss: r.peakRss });
        log(
          `  ${size} posts ${name} images, unchanged rebuild ${i + 1}/${runs}: ${(r.ms / 1000).toFixed(2)} s (folio's own ${ownMs(r.stdout)} ms)`,
        );
      }
    }
    for (const v of [without, withImages]) await v.done();
    const a = summary(without);
    const b = summary(withImages);
    return { images: IMAGE_COUNT, every: IMAGE_EVERY, without: a, with: b, ratio: b.ms / a.ms, ownRatio: b.ownMs / a.ownMs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The report's lines for one size. */
export function imagesReport(size, r) {
  const sec = (ms) => `${(ms / 1000).toFixed(2)} s`;
  if (r.skip || r.error) return [`Unchanged rebuild with images: ${r.skip ? `skipped: ${r.skip}` : `failed: ${r.error}`}.`, ''];
  return [
    `Unchanged rebuild with images (D44; ${r.images} distinct PNG and SVG figures, one in every ${r.every} posts, ${Math.ceil(size / r.every)} image references): ` +
      `${sec(r.with.ms)} wall (${sec(r.with.ownMs)} inside folio) with images against ${sec(r.without.ms)} (${sec(r.without.ownMs)}) without, ` +
      `a ratio of ${r.ratio.toFixed(2)} wall and ${r.ownRatio.toFixed(2)} inside folio (medians of ${r.with.runs.length}). ` +
      `The first build with images, which runs sharp on every figure, took ${sec(r.with.firstMs)} against ${sec(r.without.firstMs)}.`,
    '',
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const size = Number(process.argv[2] ?? 1000);
  const runs = Number(process.argv[3] ?? 5);
  const r = await benchImages({ size, runs });
  console.log(JSON.stringify({ size, ...r }, null, 2));
  console.log(imagesReport(size, r).join('\n'));
}
