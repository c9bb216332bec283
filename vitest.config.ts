import { basename } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest test files, slowest first, as measured on the 2-core machine.
 * vitest orders files by the durations of its previous run, and without one
 * (a clean clone, as in CI) by file size, which can leave several of these
 * to the end with one core idle for their length. A hint only: a file
 * missing here runs after them, in vitest's order.
 */
const SLOWEST = [
  'git-stamps',
  'killed-incremental',
  'dev-batches',
  'stamps',
  'dev-stop',
  'browser-accessibility',
  'content-warnings',
  'images-errors',
  'content-errors',
  'authoring',
  'incremental-edge',
  'migration-front-matter',
  'spare',
  'incremental-fuzz',
  'own-site-errors',
  'search-cut',
  'check',
  'dev-while-rebuilding',
  'migration-files-and-bodies',
  'reproducible',
  'hosts-cloudflare',
  'killed-build',
  'cloudflare',
  'dev-files',
  'incremental-posts-and-site',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.indexOf(basename(f.moduleId, '.test.ts'));
      return i === -1 ? SLOWEST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  plugins: [
    {
      // vitest gives its workers (and so the render threads they start) the
      // `development` condition, which loads the development builds of
      // micromark, mdast and unist: assertions and a debug call per token.
      // The tests run the code folio's bundle and Node load instead.
      name: 'folio:production-conditions',
      configResolved(config) {
        const ssr = config.ssr.resolve as { conditions?: string[] } | undefined;
        if (ssr?.conditions) ssr.conditions = ssr.conditions.filter((c) => c !== 'development|production' && c !== 'development');
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: more workers only add contention between the servers under test.
    maxWorkers: 2,
    // A worker's test files share its modules: the build code is loaded once
    // per worker, and the sample site is built once per worker
    // (test/helpers/site.ts). No test replaces a module or global state.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
  },
});
