// Pagefind, the static-search peer (`npm run bench`'s search part): its
// indexing time and index size over the same HTML pages, beside folio's own
// search index.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countFiles, measure, median } from './measure.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Pagefind over the HTML folio wrote, or over Eleventy's when folio wrote no pages yet. */
export async function pagefind(ctx, cold, runs) {
  const bin = join(ROOT, 'node_modules', '.bin', 'pagefind');
  if (!existsSync(bin)) return { skip: 'node_modules/.bin/pagefind is missing (npm ci installs it).' };
  const folioHtml = countHtml(join(ctx.work, 'folio-dist'));
  let site = join(ctx.work, 'folio-dist');
  let over = `folio's ${folioHtml} HTML pages`;
  if (folioHtml < ctx.size) {
    if (!cold.eleventy?.runs.length) return { skip: `folio wrote ${folioHtml} HTML pages for ${ctx.size} posts and Eleventy did not run.` };
    site = join(ctx.work, 'eleventy-out');
    over = `Eleventy's ${countHtml(site)} HTML pages (folio wrote only ${folioHtml} HTML pages)`;
  }
  const out = join(ctx.work, 'pagefind');
  const rows = [];
  for (let i = 0; i < Math.min(runs, 3); i++) {
    rmSync(out, { recursive: true, force: true });
    const r = await measure(bin, ['--site', site, '--output-path', out], { cwd: ctx.work });
    rows.push(r);
  }
  const size = countFiles(out);
  ctx.log(
    `  ${ctx.size} posts: Pagefind over ${over}: ${(median(rows.map((r) => r.ms)) / 1000).toFixed(2)} s, ${size.files} files, ${(size.bytes / 2 ** 20).toFixed(1)} MiB`,
  );
  return {
    over,
    ms: median(rows.map((r) => r.ms)),
    peakRss: Math.max(...rows.map((r) => r.peakRss)),
    files: size.files,
    bytes: size.bytes,
  };
}

function countHtml(dir) {
  let n = 0;
  const walk = (d) => {
    for (const e of existsSync(d) ? readdirSync(d, { withFileTypes: true }) : []) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.html')) n++;
    }
  };
  walk(dir);
  return n;
}
