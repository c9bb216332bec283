// A test file's own working folder (the CLI's cwd, where nothing should be
// written unless a test says so) and fresh copies of the sample content,
// all removed after the file's tests.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { copyContent, tempDir } from './site.js';

export interface Workspace {
  /** The working folder, made before the file's first test. */
  readonly cwd: string;
  /** A fresh copy of the sample content for one test to edit. */
  content(): Promise<string>;
}

export function workspace(prefix: string): Workspace {
  const dirs: string[] = [];
  let cwd = '';
  beforeAll(async () => {
    cwd = await tempDir(prefix);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  return {
    get cwd() {
      return cwd;
    },
    async content() {
      const dir = await copyContent();
      dirs.push(dir);
      return dir;
    },
  };
}
