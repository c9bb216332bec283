// `_folio/site.json`, the model the functions read: after a body edit,
// spliced from the previous build's file as the documents of post sections
// are (it holds every post's Markdown), else made whole. It alone shows the
// whole build clock: when that changed, the text around the posts is made
// again too (the rules in incremental.ts).
import { SITE_PATH } from '../core/files.js';
import { utf8, type Frame } from '../core/http.js';
import type { SiteModel } from '../core/site-model.js';
import type { Plan } from './incremental.js';
import type { BuildState } from './build-state.js';
import type { Ledger } from './ledger.js';
import { runtimeModelFrame, runtimeModelSections, runtimePostSection } from './memory-runtime.js';
import { indexSections, type SectionIndex } from './splice.js';

/**
 * A file of keyed sections after an edit (a document, or the model), written
 * by the sink as the previous file with the edited posts' sections, and those
 * keyed in `also`, made again by `render`, and with `frame`, the text around
 * them too (splice.ts): its tag for the state and its index, or null when it
 * must be made whole (emit.ts).
 */
export type Splicer = (
  file: string,
  index: SectionIndex | undefined,
  tag: string,
  render: (key: string) => string,
  frame?: Frame,
  also?: ReadonlySet<string>,
) => Promise<{ tag: string; index: SectionIndex } | null>;

export async function writeModelFile(
  model: SiteModel,
  plan: Plan,
  previous: BuildState | null,
  ledger: Ledger,
  splice: Splicer,
): Promise<void> {
  const { site } = model;
  const { state } = ledger;
  const index = previous?.sections?.get(SITE_PATH);
  const before = previous?.extras.get(SITE_PATH);
  const clocked = previous?.digest.clock !== state.digest.clock;
  // Nothing changed: the previous file, as it is.
  if (!plan.all && plan.changed.size === 0 && !clocked && before) {
    await ledger.keptExtra(SITE_PATH, before);
    if (index) state.sections.set(SITE_PATH, index);
    return;
  }
  const frame = clocked ? runtimeModelFrame(site) : undefined;
  const section = (slug: string) => {
    const at = model.posts.bySlug.get(slug)!;
    return runtimePostSection(site.posts[at]!, at);
  };
  const made = before && (await splice(SITE_PATH, index, before.hash, section, frame));
  if (made) {
    ledger.recordExtra(SITE_PATH, { hash: made.tag, size: made.index.size });
    state.sections.set(SITE_PATH, made.index);
    return;
  }
  const sections = runtimeModelSections(site);
  const bytes = utf8(sections.texts.join(''));
  // Indexed before the write: a large body moves to the writing thread, which leaves it empty here.
  state.sections.set(SITE_PATH, indexSections(sections, bytes));
  await ledger.extra(SITE_PATH, bytes);
}
