// The model as the build's respond() and the functions see it: the runtime
// copy written to dist (no rendered HTML), and a runtime over a model in memory.
import { modelData } from '../core/data.js';
import type { Site } from '../core/model.js';
import type { Runtime, SearchEngine } from '../core/runtime.js';
import { SiteModel } from '../core/site-model.js';

/** The runtime copy of the model: rendered HTML stays in the pages, not in the functions' data. */
export function runtimeModel(site: Site): Site {
  return {
    ...site,
    profile: { ...site.profile, bio_html: undefined, photo_attributes: undefined },
    services: site.services.map((s) => ({ ...s, body_html: undefined })),
    posts: site.posts.map((p) => ({ ...p, html: undefined })),
    projects: site.projects.map((p) => ({ ...p, html: undefined })),
    changes: { ...site.changes, entries: [] },
  };
}

/** A runtime over an in-memory site, for the build and the tests; a bare site gets a model of its own. */
export function memoryRuntime(of: Site | SiteModel, search?: () => Promise<SearchEngine>): Runtime {
  const model = of instanceof SiteModel ? of : new SiteModel(of);
  const { site } = model;
  return {
    site,
    model,
    whole: true,
    data: modelData(model),
    search: search ?? (() => Promise.reject(new Error('The search index is not available in this runtime.'))),
    changes: () => Promise.resolve(site.changes),
  };
}
