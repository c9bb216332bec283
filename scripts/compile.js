// Compiles the TypeScript CLI into lib/ with esbuild: one file per entry point,
// dependencies left external so node_modules is used as installed.
import { build } from 'esbuild';

await build({
  // The rendering worker is its own entry: worker_threads start it from a file (build/emit/workers.ts).
  entryPoints: { cli: 'build/cli.ts', 'render-worker': 'build/emit/render-worker.ts' },
  outdir: 'lib',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
