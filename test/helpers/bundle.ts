// What the core's modules bundle to (D38): esbuild's metafile for an entry,
// bundled as a host bundles a function, or with its packages left out.
import { build as esbuild, type Metafile } from 'esbuild';

export async function bundleMeta(entry: string, packages?: 'external'): Promise<Metafile> {
  const result = await esbuild({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    packages,
    logLevel: 'silent',
  });
  return result.metafile;
}
