// The parts of folio dev tested each on its own, outside startDev: a folder
// of their own for what they write, and a copy of the sample content whose
// post they edit and put back.
import { rm } from 'node:fs/promises';
import { copyContent, tempDir } from './site.js';

/** The sample post the tests edit. */
export const POST = 'bounce-handling';

export interface DevPartsFixture {
  /** The file's own folder: the outputs, the cache and the clean builds compared with them. */
  work: string;
  /** The copy of the sample content. */
  content: string;
  close(): Promise<void>;
}

export async function openDevParts(prefix: string): Promise<DevPartsFixture> {
  const work = await tempDir(prefix);
  const content = await copyContent();
  return {
    work,
    content,
    async close() {
      await rm(work, { recursive: true, force: true });
      await rm(content, { recursive: true, force: true });
    },
  };
}
