// The GET targets of one build, one at a time: each is kept (the previous
// build's file, reused) or asked for again (spliced from the previous file
// where it can be, answered by respond() otherwise) as the plan says (D56).
import { bodiesShown, documentFrame, frameShowsBodies, keyedSection } from '../core/documents/index.js';
import { watchClock, watchClockAsync } from '../core/clock.js';
import type { Runtime } from '../core/runtime.js';
import type { SiteModel } from '../core/site-model.js';
import { pageOfTwin, twinPath } from '../core/urls.js';
import { fileAnswer } from './answer.js';
import { recordHeaders, type BuildState, type OutputRecord } from './build-state.js';
import type { FirstAnswer, FirstTargets, Made, Sink } from './emit-options.js';
import { mustAsk, showsAsBefore, showsMovedClock, type Plan } from './incremental.js';
import type { Ledger } from './ledger.js';
import type { Splicer } from './model-file.js';
import { indexSections, sectionEdits, splicedTag } from './splice.js';

export class Targets {
  /** Targets respond() or a splice was asked for. */
  declare readonly asked: Set<string>;
  /** Targets made by splicing the previous file. */
  declare readonly spliced: string[];
  /** Set once a build of first targets stops: every later target keeps its file. */
  declare stopped: boolean;
  /** The Splicer of this build (model-file.ts): null too when the sink cannot splice the file. */
  declare readonly splice: Splicer;
  // Declared and assigned here rather than as class fields: a field starts as undefined, and its
  // first object then changes the instance's map under the hot methods (31,000 calls of keep()).
  declare private readonly model: SiteModel;
  declare private readonly rt: Runtime;
  declare private readonly plan: Plan;
  declare private readonly previous: BuildState | null;
  declare private readonly ledger: Ledger;
  declare private readonly sink: Sink;
  /** The previous build's targets and records, walked in step with this build's (recordOf); null once the two differ. */
  declare private keys: Iterator<string> | null;
  declare private records: Iterator<OutputRecord> | null;

  constructor(model: SiteModel, rt: Runtime, plan: Plan, previous: BuildState | null, ledger: Ledger, sink: Sink) {
    this.model = model;
    this.rt = rt;
    this.plan = plan;
    this.previous = previous;
    this.ledger = ledger;
    this.sink = sink;
    this.keys = previous?.routes.keys() ?? null;
    this.records = previous?.routes.values() ?? null;
    this.asked = new Set();
    this.spliced = [];
    this.stopped = false;
    this.splice = async (file, index, tag, render, frame, also) => {
      if (plan.all || !index || !sink.splice) return null;
      const made = sectionEdits(index, also?.size ? new Set([...plan.changed, ...also]) : plan.changed, render, frame);
      if (!made || !(await sink.splice(file, index.size, made.edits))) return null;
      ledger.wrote(file);
      return { tag: splicedTag(tag, made.edits), index: made.index };
    };
  }

  /**
   * The first targets, asked for before any other (FirstTargets); their
   * answers are routed when the walk of every target reaches them. Stops
   * the build when the caller says so.
   */
  async first(first: FirstTargets): Promise<Map<string, Made | null>> {
    const made = new Map<string, Made | null>();
    const answers: FirstAnswer[] = [];
    for (const target of first.targets) {
      const before = this.previous?.routes.get(target);
      if (this.mustKeep(target, before)) {
        answers.push({ target, file: before.file, headers: recordHeaders(this.previous!, before), written: false });
        continue;
      }
      const answer = await this.ask(target, before);
      made.set(target, answer);
      if (answer) answers.push({ target, file: answer.file, headers: answer.headers, written: answer.written });
    }
    this.stopped = !(await first.then(answers));
    return made;
  }

  /**
   * The previous build's record of a target of the walk, which asks for
   * them in order: the next of the previous build's routes while the two
   * builds list the same targets in the same order (an edit's do), else
   * found by its target.
   */
  recordOf(target: string): OutputRecord | undefined {
    const key = this.keys?.next();
    if (key && !key.done && key.value === target) return this.records!.next().value as OutputRecord;
    this.keys = this.records = null;
    return this.previous?.routes.get(target);
  }

  /** Whether the target keeps the previous build's file: it had one, and the plan does not ask for it. */
  mustKeep(target: string, before: OutputRecord | undefined): before is OutputRecord {
    const { plan, previous } = this;
    const same = showsAsBefore(plan, previous, this.ledger.state, target, bodiesShown(this.model, target));
    return before !== undefined && (this.stopped || (!showsMovedClock(plan, previous, target) && (same || !mustAsk(plan, target))));
  }

  /** What the previous response of a target read of the build clock, as this build's record of the one it keeps. */
  private carryClock(target: string) {
    const read = this.previous?.clock?.get(target);
    if (read) this.ledger.state.clock!.set(target, read);
    return read;
  }

  /** A target the plan does not ask for: the previous build's file, reused; a promise only when the sink must be waited for. */
  keep(target: string, before: OutputRecord): Promise<void> | void {
    const { ledger, model } = this;
    // The previous record itself where this build numbers its header set the same (almost always):
    // a copy of each would be 31,000 more objects for the collector to move at 10,000 posts.
    const set = ledger.carrySet(before.set);
    ledger.route(target, set === before.set ? before : { ...before, set }, set === before.set);
    const sections = this.previous!.sections?.get(target);
    if (sections) ledger.state.sections.set(target, sections);
    ledger.kept.add(before.file);
    const read = this.carryClock(target);
    // A kept twin's size is all llms.txt needs of it (its token estimate), and shows what the twin read of the clock.
    const page = pageOfTwin(target);
    if (page !== null) model.twinSizes.set(page, before.size);
    if (page !== null && read) model.pageClock.set(page, read);
    return this.sink.reuse(before.file);
  }

  /**
   * A target asked for again, and written. It is routed when `record` is
   * called: in the order targets are enumerated, so that the manifest
   * numbers header sets and lists routes as a clean build does.
   */
  async ask(target: string, before: OutputRecord | undefined): Promise<Made | null> {
    this.asked.add(target);
    return (await this.spliceTarget(target, before)) ?? this.answer(target, before);
  }

  /** The target made from the previous file with its changed sections, or null when it must be made whole. */
  private async spliceTarget(target: string, before: OutputRecord | undefined): Promise<Made | null> {
    const { model, plan, previous, ledger } = this;
    const index = previous?.sections?.get(target);
    if (before === undefined || index === undefined || plan.all) return null;
    const from = ledger.written.length;
    // One that showed the part of the clock that moved, or whose frame shows bodies (llms.txt), gets the text around
    // its sections made again, and the sections of the pages whose twins showed the clock (llms-full.txt, Sections);
    // without a frame it is made whole. After a listed field changed, every frame (a feed's newest date) and page
    // section (the home page's recent posts) may show it: all are made again.
    const listed = plan.listed !== undefined;
    const framed =
      listed || showsMovedClock(plan, previous, target) || frameShowsBodies(target) ? watchClock(() => documentFrame(model, target)) : null;
    if (framed && !framed.value) return null;
    const pages = framed
      ? new Set(index.keys.filter((key) => key.startsWith('/') && (listed || showsMovedClock(plan, previous, twinPath(key)))))
      : undefined;
    const made = await this.splice(
      before.file,
      index,
      before.etag,
      (key) => keyedSection(model, target, key)!,
      framed?.value ?? undefined,
      pages,
    );
    if (!made) return null;
    // The headers of a document do not depend on its bytes.
    const { tag } = made;
    const size = made.index.size;
    return {
      file: before.file,
      headers: recordHeaders(previous!, before),
      written: ledger.written.length > from,
      record: () => {
        ledger.state.sections.set(target, made.index);
        if (this.carryClock(target) !== 'time' && framed?.read) ledger.state.clock!.set(target, framed.read);
        this.spliced.push(target);
        return ledger.route(target, { file: before.file, etag: tag, set: ledger.carrySet(before.set), own: before.own, size });
      },
    };
  }

  /** The target as respond() answers it, written. */
  private async answer(target: string, before: OutputRecord | undefined): Promise<Made | null> {
    const { ledger } = this;
    const from = ledger.written.length;
    const { value: answer, read } = await watchClockAsync(() => fileAnswer(target, this.rt));
    if (!answer) return null;
    const { file, headers, etag: tag, body } = answer;
    // Without a folder per address, a page and a document of the same name would share a file.
    if (ledger.kept.has(file))
      throw new Error(
        `folio: ${target} would be written to ${file}, which another address of this build already holds; report this as a bug (core/files.ts fileFor).`,
      );
    // Taken before the write: a large body moves to the writing thread, which leaves it empty here.
    const size = body.byteLength;
    const sections = answer.sections && indexSections(answer.sections, body);
    await ledger.put(file, body, tag, before?.file === file ? before.etag : undefined);
    return {
      file,
      headers,
      written: ledger.written.length > from,
      record: () => {
        if (sections) ledger.state.sections.set(target, sections);
        if (read) ledger.state.clock!.set(target, read);
        return ledger.route(target, { file, etag: tag, ...ledger.headers(headers), size });
      },
    };
  }
}
