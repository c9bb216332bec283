// Each host's own files, printed from the one manifest and checked against
// each host's limits before anything is written (D39).
import type { BuiltManifest } from '../manifest.js';
import type { Site } from '../../core/model.js';
import type { FileBytes } from '../atomic.js';
import { edgeFileCount } from '../edge.js';
import { cloudflare } from './cloudflare.js';
import { checkHostLimits, type Host } from './limits.js';
import { netlify } from './netlify.js';
import { planHosts } from './plan.js';
import { vercel } from './vercel.js';

export interface HostOptions {
  /** The hosts the author deploys to (`folio build --host`): their limits fail the build. None by default. */
  deploy?: readonly Host[];
  /** Where the other hosts' limit problems go; by default stderr, as `folio: warning: …`. */
  warn?: (message: string) => void;
}

const toStderr = (message: string) => void process.stderr.write(`folio: warning: ${message}\n`);

export function hostFiles(site: Site, manifest: BuiltManifest, options: { hosts?: HostOptions } = {}): FileBytes[] {
  const plan = planHosts(site, manifest);
  const files = [...cloudflare(plan), ...netlify(plan), ...vercel(plan)];
  checkHostLimits(files, manifest, options.hosts?.deploy ?? [], options.hosts?.warn ?? toStderr, edgeFileCount(site, manifest));
  return files;
}
