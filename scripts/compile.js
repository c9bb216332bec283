// Compiles the TypeScript CLI into lib/ with esbuild: one file per entry point.
// Dependencies are bundled in too: Node then loads one file instead of a few
// hundred ESM modules from node_modules, which took about 0.6 s of CPU at
// every start of the CLI and of each rendering worker. They are
// still declared in package.json and installed; only the loading changes.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeStylesheetModule } from './stylesheet.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * gray-matter's own js-yaml 3 is loaded with it (its default engines), and
 * tries require('esprima') for its JavaScript types: about 17 ms of every
 * start. folio gives gray-matter its own YAML engine and never stringifies,
 * so gray-matter gets the js-yaml 4 folio uses, in which the names it binds
 * at load (safeLoad, safeDump) still exist and would throw if ever called.
 */
const oneJsYaml = {
  name: 'one-js-yaml',
  setup(b) {
    b.onResolve({ filter: /^js-yaml$/ }, async (args) => {
      if (!/[\\/]gray-matter[\\/]/.test(args.importer)) return undefined;
      // The file folio's own import resolves to, so the bundle holds one copy.
      const ours = await b.resolve('js-yaml', { kind: 'import-statement', resolveDir: ROOT });
      return { path: ours.path };
    });
  },
};

// build/core/pages/style.css → style.ts, the module the bundle carries.
writeStylesheetModule();

await build({
  // The rendering and writing workers are entries of their own: worker_threads start them from files (build/emit/workers.ts, atomic.ts).
  entryPoints: {
    cli: 'build/cli.ts',
    'render-worker': 'build/emit/render-worker.ts',
    'write-worker': 'build/emit/write-worker.ts',
    'search-worker': 'build/emit/search-worker.ts',
    'image-worker': 'build/emit/image-worker.ts',
  },
  // sharp loads a native binary that ships per platform in its own package: never bundled.
  external: ['sharp'],
  plugins: [oneJsYaml],
  outdir: 'lib',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS dependencies (gray-matter and those it loads) call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __folioRequire } from 'node:module'; const require = __folioRequire(import.meta.url);" },
  // Minified, because Node decodes and parses the whole bundle before its
  // first line runs: unminified, the 2 MB CLI and each worker start 70-80 ms
  // later. Whitespace and syntax only, so stack traces keep their names.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
