// Every family the build asks for the responses it can enumerate (D38), in
// the order respond() asks them: the API, the documents, the pages. The
// functions' runtime has the API's alone (runtime/handler.ts): the documents
// and the pages answer only from the whole model, which the functions do not
// have, and their every answer is a precomputed file (D55). Kept apart from
// respond.ts, so that their code is not in the functions' bundle either.
import { apiFamily } from './api/index.js';
import { documentsFamily } from './documents/index.js';
import type { Family } from './family.js';
import { pagesFamily } from './pages/index.js';
import type { SiteModel } from './site-model.js';

export const families: readonly Family[] = [apiFamily, documentsFamily, pagesFamily];

const listed = new WeakMap<SiteModel, Map<Family, readonly string[]>>();

/**
 * A family's GET targets for this model, listed once: the link check
 * (site-links.ts) and the build walk the same ones, 31,000 at 10,000 posts,
 * and the build's lookups by them then reuse their hashes.
 */
export function targetsOf(model: SiteModel, family: Family): readonly string[] {
  let byFamily = listed.get(model);
  if (!byFamily) listed.set(model, (byFamily = new Map()));
  let targets = byFamily.get(family);
  if (!targets) byFamily.set(family, (targets = family.enumerate(model)));
  return targets;
}

/** Every GET target the build can precompute, across the families. */
export function enumerate(model: SiteModel): string[] {
  return families.flatMap((f) => targetsOf(model, f));
}
