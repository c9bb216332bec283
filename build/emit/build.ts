// folio build: content → site model → every precomputable response → dist/.
// Each response comes from the same respond() the functions call (D38).
import { families, respond } from '../core/respond.js';
import { fileFor, MANIFEST_PATH, SITE_PATH, type Manifest } from '../core/files.js';
import { jsonText, request, type Headers } from '../core/http.js';
import type { Site } from '../core/model.js';
import type { Runtime, SearchEngine } from '../core/runtime.js';
import { loadContent } from '../content/load.js';
import { buildSite } from '../site.js';
import { recoverOutput, writeAtomically, type OutputFile } from './atomic.js';
import { hostFiles } from './hosts/index.js';
import { searchIndexArtifact } from './search-index.js';

export interface BuildOptions {
  content: string;
  out: string;
  now: Date;
  siteUrl?: string;
}

export interface BuildResult {
  site: Site;
  files: number;
  bytes: number;
  ms: number;
}

/** Extra files other parts of folio add to dist (the search index, host configs). */
export type Artifact = (site: Site, manifest: Manifest) => OutputFile[] | Promise<OutputFile[]>;
export const artifacts: Artifact[] = [hostFiles, searchIndexArtifact];

/** The runtime copy of the model: rendered HTML stays in the pages, not in the functions' data. */
export function runtimeModel(site: Site): Site {
  return {
    ...site,
    profile: { ...site.profile, bio_html: undefined },
    services: site.services.map((s) => ({ ...s, body_html: undefined })),
    posts: site.posts.map((p) => ({ ...p, html: undefined })),
    projects: site.projects.map((p) => ({ ...p, html: undefined })),
  };
}

/** A runtime over an in-memory site, for the build and the tests. */
export function memoryRuntime(site: Site, search?: () => Promise<SearchEngine>): Runtime {
  return {
    site,
    search: search ?? (() => Promise.reject(new Error('The search index is not available in this runtime.'))),
  };
}

export async function renderSite(site: Site): Promise<{ files: OutputFile[]; manifest: Manifest }> {
  const rt = memoryRuntime(site);
  const manifest: Manifest = { version: 1, site_url: site.config.site_url, header_sets: [], routes: {}, fallbacks: {} };
  const setIndex = new Map<string, number>();
  const headerSet = (headers: Headers) => {
    const { etag: _etag, ...rest } = headers;
    const key = JSON.stringify(rest);
    let i = setIndex.get(key);
    if (i === undefined) {
      i = manifest.header_sets.push(rest) - 1;
      setIndex.set(key, i);
    }
    return i;
  };
  const files: OutputFile[] = [];
  for (const family of families) {
    for (const target of family.enumerate(site)) {
      const reply = await respond(request('GET', target), rt);
      // Only successes become files: a CDN serves a file with 200, so every
      // other answer is left to the functions, which give the right status.
      if (reply.status !== 200 || !reply.body) continue;
      const file = fileFor(target, reply.headers['content-type'] ?? '');
      files.push({ path: file, body: reply.body });
      manifest.routes[target] = [file, headerSet(reply.headers)];
    }
  }
  // The not-found page, so static hosts answer unknown paths with it (D23).
  const missing = await respond(request('GET', '/404', { accept: 'text/html' }), rt);
  if (missing.body) {
    files.push({ path: '404.html', body: missing.body });
    manifest.fallbacks['/*'] = { file: '404.html', status: 404, header_set: headerSet(missing.headers) };
  }
  files.push({ path: SITE_PATH, body: JSON.stringify(runtimeModel(site)) });
  for (const artifact of artifacts) files.push(...(await artifact(site, manifest)));
  files.push({ path: MANIFEST_PATH, body: jsonText(manifest) });
  return { files, manifest };
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  await recoverOutput(options.out);
  const sources = await loadContent(options.content);
  const site = buildSite(sources, { now: options.now, siteUrl: options.siteUrl });
  const { files } = await renderSite(site);
  const written = await writeAtomically(options.out, files);
  return { site, ...written, ms: performance.now() - started };
}
