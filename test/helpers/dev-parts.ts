// The parts of folio dev tested each on its own, outside startDev: a folder
// of their own for what they write, and a copy of the sample content whose
// post they edit and put back.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { copyContent, tempDir } from './site.js';

/** The sample post the tests edit. */
export const POST = 'bounce-handling';

export interface DevPartsFixture {
  /** The file's own folder: the outputs, the cache and the clean builds compared with them. */
  work: string;
  /** The copy of the sample content. */
  content: string;
}

/** The file's folder and copy of the sample content, made before its tests and removed after them; set once beforeAll has run. */
export function devParts(prefix: string): DevPartsFixture {
  const s = {} as DevPartsFixture;
  beforeAll(async () => {
    s.work = await tempDir(prefix);
    s.content = await copyContent();
  });
  afterAll(async () => {
    for (const dir of [s.work, s.content]) if (dir) await rm(dir, { recursive: true, force: true });
  });
  return s;
}
