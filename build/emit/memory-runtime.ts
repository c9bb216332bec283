// The model as the build's respond() and the functions see it: the runtime
// copy written to dist (no rendered HTML), and a runtime over a model in memory.
import { modelData } from '../core/data.js';
import { families } from '../core/families.js';
import type { Frame, Sections } from '../core/http.js';
import type { Post, Site } from '../core/model.js';
import type { Runtime, SearchEngine } from '../core/runtime.js';
import { SiteModel } from '../core/site-model.js';

/** The runtime copy of the model: rendered HTML stays in the pages, not in the functions' data. */
export function runtimeModel(site: Site): Site {
  return { ...runtimeFrame(site), posts: site.posts.map(runtimePost) };
}

/** The runtime copy but for its posts, which are still the model's; every member in the model's order. */
function runtimeFrame(site: Site): Site {
  return {
    ...site,
    profile: { ...site.profile, bio_html: undefined, photo_attributes: undefined },
    services: site.services.map((s) => ({ ...s, body_html: undefined })),
    projects: site.projects.map((p) => ({ ...p, html: undefined })),
    changes: { ...site.changes, entries: [] },
  };
}

function runtimePost(post: Post): Post {
  return { ...post, html: undefined };
}

/**
 * The text of JSON.stringify(runtimeModel(site)) before its first post
 * (`head`, up to `"posts":[`) and after its last (`tail`, from `]`): what an
 * incremental build puts in `_folio/site.json` around the posts it keeps
 * when the build clock or nothing else changed.
 */
export function runtimeModelFrame(site: Site): Frame {
  let head: string | null = null;
  let text = '{';
  let comma = '';
  for (const [key, value] of Object.entries(runtimeFrame(site))) {
    if (key === 'posts') {
      head = `${text}${comma}"posts":[`;
      text = ']';
    } else {
      // As JSON.stringify leaves out a member whose value is undefined.
      const json = JSON.stringify(value) as string | undefined;
      if (json === undefined) continue;
      text += `${comma}${JSON.stringify(key)}:${json}`;
    }
    comma = ',';
  }
  return { head: head!, tail: `${text}}` };
}

/**
 * JSON.stringify(runtimeModel(site)) as sections, one per post (Sections in
 * core/http.ts): after an edit of posts' bodies an incremental build splices
 * `_folio/site.json` as it splices the documents of post sections.
 */
export function runtimeModelSections(site: Site): Sections {
  const { head, tail } = runtimeModelFrame(site);
  return {
    texts: [head, ...site.posts.map(runtimePostSection), tail],
    keys: [null, ...site.posts.map((p) => p.slug), null],
  };
}

/** The section of runtimeModelSections that holds the post at this index of site.posts. */
export function runtimePostSection(post: Post, index: number): string {
  return `${index === 0 ? '' : ','}${JSON.stringify(runtimePost(post))}`;
}

/** A runtime over an in-memory site, for the build and the tests; a bare site gets a model of its own. */
export function memoryRuntime(of: Site | SiteModel, search?: () => Promise<SearchEngine>): Runtime {
  const model = of instanceof SiteModel ? of : new SiteModel(of);
  const { site } = model;
  return {
    site,
    model,
    families,
    data: modelData(model),
    search: search ?? (() => Promise.reject(new Error('The search index is not available in this runtime.'))),
    changes: () => Promise.resolve(site.changes),
  };
}
