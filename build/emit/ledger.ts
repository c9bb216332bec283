// What a build has routed and written so far: the manifest, with header sets
// numbered in the order targets first use them (so an incremental build
// numbers them as a clean one does), the state the next incremental build
// compares against, and which files were written and which kept.
import { hash } from 'node:crypto';
import { splitHeaders } from '../core/files.js';
import { utf8, type Headers } from '../core/http.js';
import type { Site } from '../core/model.js';
import { codeFingerprint } from './cache.js';
import type { Sink } from './emit-options.js';
import type { BuildState, OutputRecord } from './build-state.js';
import { targetsDigest } from './edge-before.js';
import { manifestBytes, type BuiltManifest } from './manifest.js';

export const sha1 = (body: Uint8Array) => hash('sha1', body, 'base64');

export class Ledger {
  readonly manifest: BuiltManifest;
  readonly state: BuildState;
  /** Files written because they are new or their bytes changed, in order. */
  readonly written: string[] = [];
  /** Every file of the output so far. */
  readonly kept = new Set<string>();
  bytes = 0;
  private readonly setIndex = new Map<string, number>();
  /** The previous build's header sets, by index, as this build numbers them. */
  private readonly carriedSets = new Map<number, number>();
  /** By place in the routes, 1 for a route routed as the previous build's manifest has it. */
  private carried = new Uint8Array(1024);

  constructor(
    site: Site,
    private readonly sink: Sink,
    private readonly previous: BuildState | null,
  ) {
    this.manifest = {
      version: 1,
      site_url: site.config.site_url,
      // Named after the model the functions read, once it is made.
      build: '',
      header_sets: [],
      routes: new Map(),
      fallbacks: {},
      redirects: site.redirects,
    };
    this.state = {
      fingerprint: codeFingerprint(),
      // Set by the build once its first targets are written, which making it would delay.
      digest: undefined!,
      routes: new Map(),
      headerSets: this.manifest.header_sets,
      extras: new Map(),
      sections: new Map(),
      shown: new Map(),
      clock: new Map(),
    };
  }

  /** The number of the header set `headers` share with others of their kind, and their own headers (core/files.ts splitHeaders). */
  headers(headers: Headers): { set: number; own?: Headers } {
    const { shared, own } = splitHeaders(headers);
    return own ? { set: this.setOf(shared), own } : { set: this.setOf(shared) };
  }

  /** The header set of a file that has no headers of its own (404.html, static files, images): all of its headers. */
  wholeSet(headers: Headers): number {
    const { shared, own } = splitHeaders(headers);
    if (own)
      throw new Error(
        `folio: ${Object.keys(own).join(', ')} would be lost from a file routed without its own headers; report this as a bug (emit/ledger.ts).`,
      );
    return this.setOf(shared);
  }

  /** The previous build's header set `set`, as this build numbers it (a set holds no file's own headers, so it is not split again). */
  carrySet(set: number): number {
    let mine = this.carriedSets.get(set);
    if (mine === undefined) this.carriedSets.set(set, (mine = this.setOf(this.previous!.headerSets[set]!)));
    return mine;
  }

  private setOf(shared: Headers): number {
    const key = JSON.stringify(shared);
    let i = this.setIndex.get(key);
    if (i === undefined) {
      i = this.manifest.header_sets.push(shared) - 1;
      this.setIndex.set(key, i);
    }
    return i;
  }

  /** A file of the output: written, or reused when its tag is the previous build's. */
  put(file: string, body: Uint8Array, tag: string, before: string | undefined): Promise<void> | void {
    if (before === tag) {
      this.kept.add(file);
      return this.sink.reuse(file);
    }
    this.wrote(file);
    return this.sink.write(file, body);
  }

  /** A file of the output written in this build (put, or spliced by the sink). */
  wrote(file: string): void {
    this.kept.add(file);
    this.written.push(file);
  }

  /**
   * A file outside the route table (site.json, 404.html, the manifest,
   * artifacts), known by its hash: `known`, or its bytes'. `rewrite`: the
   * previous output's file is not what the state records, so it is written.
   */
  extra(file: string, content: Uint8Array | string, known?: string, rewrite = false): Promise<void> | void {
    // A file known by the hash the previous build wrote it with is those bytes: not even encoded.
    const before = rewrite ? undefined : this.previous?.extras.get(file);
    if (known !== undefined && before?.hash === known) return this.keptExtra(file, before);
    // Encoded once, and so hashed, counted and written as the same bytes; the
    // large ones (site.json, the manifest, the search index) then move to the
    // writing thread instead of being copied there as text.
    const body = typeof content === 'string' ? utf8(content) : content;
    const hash = known ?? sha1(body);
    this.recordExtra(file, { hash, size: body.byteLength });
    return this.put(file, body, hash, before?.hash);
  }

  /** A file an artifact found the same as the previous build wrote it, by its hash, and did not make again. */
  keptByHash(file: string, hash: string): Promise<void> {
    const before = this.previous?.extras.get(file);
    if (before?.hash !== hash)
      throw new Error(
        `folio: ${file} was kept as the previous build wrote it, but that build recorded another hash; report this as a bug (emit/ledger.ts).`,
      );
    return this.keptExtra(file, before);
  }

  /** A file outside the route table that this build keeps as the previous one wrote it. */
  async keptExtra(file: string, entry: { hash: string; size: number }): Promise<void> {
    this.recordExtra(file, entry);
    this.kept.add(file);
    await this.sink.reuse(file);
  }

  /** A file outside the route table, known by its hash (or, spliced, by its tag: splice.ts splicedTag) and size. */
  recordExtra(file: string, entry: { hash: string; size: number }): void {
    this.bytes += entry.size;
    this.state.extras.set(file, entry);
  }

  /** `carried`: the previous build's record of the target, its header set numbered the same, so its line of the manifest is the same. */
  route(target: string, record: OutputRecord, carried = false): OutputRecord {
    const place = this.manifest.routes.size;
    if (carried && place >= this.carried.length) {
      const more = new Uint8Array(place * 2);
      more.set(this.carried);
      this.carried = more;
    }
    if (carried) this.carried[place] = 1;
    this.state.routes.set(target, record);
    this.manifest.routes.set(target, record.own ? [record.file, record.set, record.own] : [record.file, record.set]);
    this.bytes += record.size;
    return record;
  }

  /**
   * The manifest's file, once every route is in: from the previous build's
   * (`before`, its bytes) when this build routes the same targets in the
   * same order, else made whole (manifest.ts). Records the targets' digest
   * in the state, which that comparison and the edge files read.
   */
  manifestBytes(before: Uint8Array | null | undefined): Uint8Array {
    this.state.targets = targetsDigest(this.manifest);
    const same = before && this.previous?.targets === this.state.targets;
    return manifestBytes(this.manifest, same ? { bytes: before, carried: (place) => this.carried[place] === 1 } : null);
  }
}
