// folio check (D1): the validation of a build (every content rule, the API
// lifecycle, every internal link to pages, twins and API addresses) without
// writing anything: not the output, not the cache. For the CI of a content
// repository: exit 0 when clean, 1 with problems, and --json for tools.
import { contentFileStart, loadContent } from './content/load.js';
import { ContentError, type Problem } from './content/problems.js';
import { RecordCache } from './emit/record-cache.js';
import { readContentFast } from './emit/documents.js';
import { assembleWithImages } from './emit/images.js';
import { isPublished } from './site.js';

export interface CheckOptions {
  content: string;
  now: Date;
  siteUrl?: string;
  /** A cache to read records from (never written by a check). */
  cache?: string | false;
  workers?: number;
}

export interface CheckResult {
  ok: boolean;
  problems: Problem[];
  /** What was checked, for the summary. */
  counts: { files: number; posts: number; projects: number; services: number; links: number };
  /** Posts that read cleanly but are not published by the build clock: drafts, and those dated after its day (UTC). */
  held: { day: string; drafts: number; scheduled: { slug: string; date: string }[] };
  /** What waits for these problems to be fixed (ContentError). */
  unchecked?: string;
  /** What the check says but does not refuse, each as `folio check` prints it after `folio: warning: `. */
  warnings: string[];
}

/** `warn`: where each warning goes as it is found; a check's result lists them too. */
export async function check(options: CheckOptions, warn?: (message: string) => void): Promise<CheckResult> {
  const warnings: string[] = [];
  const [sources, cache] = await Promise.all([loadContent(options.content), options.cache ? RecordCache.open(options.cache) : null]);
  const { content, stats } = await readContentFast(sources, { cache, workers: options.workers });
  const links = [content.profile, ...content.services, ...content.posts, ...content.projects].reduce(
    (n, r) => n + (r?.read?.links.length ?? 0),
    0,
  );
  const counts = { files: stats.files + (sources.site ? 1 : 0), posts: 0, projects: 0, services: 0, links };
  // Said in the summary, since a post dated today in a time zone ahead of UTC is otherwise silently missing.
  const day = options.now.toISOString().slice(0, 10);
  const posts = content.posts.flatMap((r) => (r.read ? [r.read] : []));
  const held = {
    day,
    drafts: posts.filter((p) => p.draft).length,
    scheduled: posts.filter((p) => !p.draft && !isPublished(p, day)).map((p) => ({ slug: p.value.slug, date: p.value.date })),
  };
  try {
    // Images are checked as a build checks them: sharp decodes each one the
    // cache has not seen (an image is cached only once it decoded). The cache
    // is only read, and no variant is made: a check writes nothing.
    const { site } = (
      await assembleWithImages(content, {
        now: options.now,
        siteUrl: options.siteUrl,
        fileStart: contentFileStart(options.content),
        cache: options.cache || null,
        check: true,
        warn: (message) => {
          warnings.push(message);
          warn?.(message);
        },
      })
    ).model;
    return {
      ok: true,
      problems: [],
      counts: { ...counts, posts: site.posts.length, projects: site.projects.length, services: site.services.length },
      held,
      warnings,
    };
  } catch (error) {
    if (error instanceof ContentError) return { ok: false, problems: error.problems, counts, held, unchecked: error.unchecked, warnings };
    throw error;
  }
}
