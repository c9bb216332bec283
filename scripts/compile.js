// Compiles the TypeScript CLI into lib/ with esbuild: one file per entry point,
// dependencies left external so node_modules is used as installed.
import { build } from 'esbuild';

await build({
  // The rendering and writing workers are entries of their own: worker_threads start them from files (build/emit/workers.ts, atomic.ts).
  entryPoints: { cli: 'build/cli.ts', 'render-worker': 'build/emit/render-worker.ts', 'write-worker': 'build/emit/write-worker.ts' },
  outdir: 'lib',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
