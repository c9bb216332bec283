// Each host's own files, printed from the one manifest and checked against
// each host's limits before anything is written (D39).
import { hash } from 'node:crypto';
import type { BuiltManifest } from '../manifest.js';
import type { Site } from '../../core/model.js';
import type { FileBytes } from '../atomic.js';
import type { EmitMade } from '../artifacts.js';
import type { EmitOptions } from '../emit-options.js';
import { edgeFileCount } from '../edge.js';
import { cloudflare } from './cloudflare.js';
import { checkHostLimits, type Host } from './limits.js';
import { netlify } from './netlify.js';
import { planHosts, type HostPlan } from './plan.js';
import { vercel } from './vercel.js';
import { printWarning } from '../../site.js';

export interface HostOptions {
  /** The hosts the author deploys to (`folio build --host`): their limits fail the build. None by default. */
  deploy?: readonly Host[];
  /** Where the other hosts' limit problems go; by default stderr, as `folio: warning: …`. */
  warn?: (message: string) => void;
}

function printHosts(plan: HostPlan, options: { hosts?: HostOptions }): FileBytes[] {
  const files = [...cloudflare(plan), ...netlify(plan), ...vercel(plan)];
  checkHosts(files, plan.site, plan.manifest, options);
  return files;
}

function checkHosts(files: FileBytes[], site: Site, manifest: BuiltManifest, options: { hosts?: HostOptions }): void {
  checkHostLimits(files, manifest, options.hosts?.deploy ?? [], options.hosts?.warn ?? printWarning, edgeFileCount(site, manifest));
}

/**
 * What a build's host files were made from. The printers read the manifest
 * but its build id (which none names) and its routes' own headers (a twin's
 * token estimate), the API versions, and the own headers of the few hundred
 * routes whose headers they look at (`read`; at 10,000 posts, not the
 * twins of most posts). With all of these the same, they print the same
 * files: they are pure functions of what they read.
 */
export interface HostsMemo {
  /** The manifest without its build id and the routes' own headers, and the API versions, hashed (hostsShape). */
  shape: string;
  /** The targets whose headers the printers read (HostPlan.headersRead), and their own headers, or none, hashed (ownDigest). */
  read: string[];
  own: string;
  /** The host files' paths. */
  files: string[];
}

/** Everything of the manifest the printers read but the routes' own headers (and the build id, which they do not). */
function hostsShape(manifest: BuiltManifest, site: Pick<Site, 'versions'>): string {
  const { version, site_url, header_sets, fallbacks, redirects } = manifest;
  const lines = [JSON.stringify([version, site_url, header_sets, fallbacks, redirects, site.versions])];
  // A target or a file name holds no tab or line break (they are URL paths).
  manifest.routes.forEach(([file, set], target) => void lines.push(`${target}\t${file}\t${set}`));
  return hash('sha1', lines.join('\n'), 'base64');
}

/** The own headers of these targets, or null for a target without any. */
function ownDigest(manifest: BuiltManifest, targets: readonly string[]): string {
  return hash('sha1', JSON.stringify(targets.map((t) => manifest.routes.get(t)?.[2] ?? null)), 'base64');
}

/**
 * Whether the host files `memo` describes are this manifest's: the same
 * shape, and the same own headers where the printers read them.
 */
function hostsHold(memo: HostsMemo, manifest: BuiltManifest, shape: string): boolean {
  return memo.shape === shape && memo.own === ownDigest(manifest, memo.read);
}

/**
 * The host files as an artifact: the previous build's, read back and checked
 * again (their warnings are this build's too), when hostsHold and each file
 * is the bytes the previous build recorded; printed otherwise. At 10,000
 * posts printing them is 0.14 s of a one-post edit, which changes none of
 * them unless the post's twin is one of the few whose headers they print.
 * A previous file edited by hand since is printed again and written, never
 * linked. `made.hosts` says which it was.
 */
export async function hostArtifact(site: Site, manifest: BuiltManifest, options: EmitOptions, made: EmitMade): Promise<FileBytes[]> {
  const { previous, state, read } = made.build;
  const shape = hostsShape(manifest, site);
  const memo = previous?.hosts;
  if (!memo || !read) return printed(site, manifest, options, made, shape, new Set());
  const bodies = await Promise.all(memo.files.map(read));
  const hashes = bodies.map((body) => body && hash('sha1', body, 'base64'));
  const edited = new Set(memo.files.filter((path, i) => hashes[i] !== previous!.extras.get(path)?.hash));
  if (edited.size || !hostsHold(memo, manifest, shape)) return printed(site, manifest, options, made, shape, edited);
  const files = memo.files.map((path, i) => ({ path, body: bodies[i]!, hash: hashes[i]! }));
  checkHosts(files, site, manifest, options);
  state.hosts = memo;
  made.hosts = 'kept';
  return files;
}

function printed(
  site: Site,
  manifest: BuiltManifest,
  options: EmitOptions,
  made: EmitMade,
  shape: string,
  edited: ReadonlySet<string>,
): FileBytes[] {
  const plan = planHosts(site, manifest);
  const files = printHosts(plan, options).map((f) => (edited.has(f.path) ? { ...f, rewrite: true } : f));
  const reads = [...plan.headersRead];
  made.build.state.hosts = { shape, read: reads, own: ownDigest(manifest, reads), files: files.map((f) => f.path) };
  made.hosts = 'printed';
  return files;
}
