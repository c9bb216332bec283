// The line `folio build` ends with: what was built, and how much of it the
// build reused or why it reused nothing.
import { plural } from './core/pages/html.js';
import type { BuildResult } from './emit/build.js';
import { NO_PREVIOUS_BUILD } from './emit/incremental.js';
import { formatBytes, type Paint } from './progress.js';

/** One line, e.g. "folio: built 10000 posts, … → dist/ (31848 files, 255.5 MiB, 9120 ms)"; bench/run.js reads the last part. */
export function buildSummary(result: BuildResult, out: string, p: Paint): string {
  const { posts, projects, services } = result.site;
  const s = result.stats;
  const work = [
    s.rendered === s.sources ? `${s.rendered} rendered` : `${s.rendered} of ${s.sources} rendered, ${s.sources - s.rendered} cached`,
    // Why a build with a previous one to compare against asked for everything again: an author in CI sees what cost the time.
    s.full === null
      ? `${s.asked} of ${s.targets} responses asked, ${s.written.length} files changed`
      : s.full === NO_PREVIOUS_BUILD
        ? null
        : `every response asked: ${s.full}`,
  ].filter(Boolean);
  return (
    `folio: built ${plural(posts.length, 'post')}, ${plural(projects.length, 'project')}, ${plural(services.length, 'service')} → ${out}/ ` +
    `(${result.files} files, ${formatBytes(result.bytes)}, ${Math.round(result.ms)} ms)` +
    p.dim(` [${work.join('; ')}]`)
  );
}
