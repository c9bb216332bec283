// The record key each content file gave, by its stamp (content/load.ts): a
// build finds the record of a file whose stamp has not moved without reading
// or hashing the file (D56). Kept beside the records, as text: per file its
// kind, path, stamp and key, one per line, in the order the build reads the
// files, so a lookup is mostly a look at the next line.
import { readFileSync } from 'node:fs';
import type { Source } from '../content/frontmatter.js';
import type { DocumentKind } from '../content/kinds.js';

const HEADER = 'folio-stamps 1';
const FIELDS = 4;

export class Stamps {
  /** The last build's lines, split: kind, file, stamp, key for each file. */
  private readonly last: string[];
  private next = 0;
  private byFile: Map<string, number> | undefined;
  /** This build's lines, and whether they differ from the last build's. */
  private readonly noted: string[] = [];
  private moved = false;

  private constructor(last: string[]) {
    this.last = last;
  }

  static empty(): Stamps {
    return new Stamps([]);
  }

  /** The stamps saved at `path`, or none when the file is not in this format; throws as readFileSync does. */
  static read(path: string): Stamps {
    const lines = readFileSync(path, 'utf8').split('\n');
    const ok = lines[0] === HEADER && (lines.length - 1) % FIELDS === 0;
    return new Stamps(ok ? lines.slice(1) : []);
  }

  /** The key the last build found for this file with the same stamp, if any. */
  keyOf(kind: DocumentKind, source: Source): string | undefined {
    if (source.stamp === undefined) return undefined;
    const at = this.find(source.file);
    const { last } = this;
    return at !== -1 && last[at] === kind && last[at + 2] === source.stamp ? last[at + 3] : undefined;
  }

  /** Remembers the key of a stamped file for the next build. */
  note(kind: DocumentKind, source: Source, key: string): void {
    if (source.stamp === undefined) return;
    if (!this.moved) {
      const at = this.noted.length;
      const { last } = this;
      this.moved = last[at] !== kind || last[at + 1] !== source.file || last[at + 2] !== source.stamp || last[at + 3] !== key;
    }
    this.noted.push(kind, source.file, source.stamp, key);
  }

  /**
   * This build's stamps as the file's text, when the next build should find
   * others than the last's; null when they are the same, or when this build
   * stamped no file (folio check and folio dev read every file and say
   * nothing of which the next build may skip).
   */
  changed(): string | null {
    if (this.noted.length === 0 || (!this.moved && this.noted.length === this.last.length)) return null;
    return `${HEADER}\n${this.noted.join('\n')}`;
  }

  /** Index of the file's line in the last build's: most often the one after the last found. */
  private find(file: string): number {
    const { last } = this;
    if (last[this.next + 1] === file) {
      const at = this.next;
      this.next += FIELDS;
      return at;
    }
    if (!this.byFile) {
      this.byFile = new Map();
      for (let i = 0; i < last.length; i += FIELDS) this.byFile.set(last[i + 1]!, i);
    }
    const at = this.byFile.get(file) ?? -1;
    if (at !== -1) this.next = at + FIELDS;
    return at;
  }
}
