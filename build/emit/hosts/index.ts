// Each host's own files, printed from the one manifest and checked against
// each host's limits before anything is written (D39).
import type { Manifest } from '../../core/files.js';
import type { Site } from '../../core/model.js';
import type { OutputFile } from '../atomic.js';
import { cloudflare } from './cloudflare.js';
import { checkHostLimits } from './limits.js';
import { netlify } from './netlify.js';
import { vercel } from './vercel.js';

export function hostFiles(site: Site, manifest: Manifest): OutputFile[] {
  const files = [...cloudflare(site, manifest), ...netlify(site, manifest), ...vercel(site, manifest)];
  checkHostLimits(files, manifest);
  return files;
}
