import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    {
      name: 'folio:users-conditions',
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
  },
});
