// One folio dev session over a copy of the sample content, for a test file
// whose tests edit that copy in turn, and the checks they share: the output
// is a clean build's, no file carries the dev server's addresses, and the
// events the server sends to open pages.
import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestDev, type TestDev } from './dev.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './site.js';

export const SLOW = { timeout: 240_000 };
/** The sample post the tests edit. */
export const POST = 'bounce-handling';

export interface DevSessionFixture extends TestDev {
  /** The session's own folder: the output, the cache and the clean builds compared with it. */
  work: string;
  /** The copy of the sample content the session watches. */
  content: string;
  out: string;
  /** Builds the content from clean and expects the same tree as the session's output. */
  expectSameAsClean(): Promise<void>;
  close(): Promise<void>;
}

/** Starts folio dev on a fresh copy of the sample content. */
async function openDevSession(prefix: string): Promise<DevSessionFixture> {
  const work = await tempDir(prefix);
  const content = await copyContent();
  const out = join(work, 'dist');
  const { dev, lines, nextRebuild } = await startTestDev(content, out, join(work, '.folio-cache'));
  return {
    dev,
    lines,
    nextRebuild,
    work,
    content,
    out,
    async expectSameAsClean() {
      const clean = join(work, `clean-${Date.now()}`);
      await cleanBuild({ content, out: clean, now: NOW });
      expect(await treeHash(out)).toEqual(await treeHash(clean));
      await rm(clean, { recursive: true, force: true });
    },
    async close() {
      await dev.close();
      await rm(work, { recursive: true, force: true });
      await rm(content, { recursive: true, force: true });
    },
  };
}

/**
 * A session opened before the file's tests and closed after them (openDevSession),
 * its fields set once beforeAll has run.
 */
export function devSession(prefix: string): DevSessionFixture {
  const s = {} as DevSessionFixture;
  beforeAll(async () => void Object.assign(s, await openDevSession(prefix)), 240_000);
  afterAll(() => s.close?.());
  return s;
}

/** Time between a poller's requests: about a hundred requests a second, enough to land many in every rebuild. */
export const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 10));

/** Every file of the output, as text, that mentions the dev server's own addresses. */
export async function devTraces(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path, 'utf8')).includes('/_folio/dev/')) found.push(path);
  }
  return found;
}

/** Reads server-sent events of one type from the dev server, until `stop` says enough. */
export async function collectEvents(url: string, type: string): Promise<{ events: unknown[]; stop(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: unknown[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === type && data) events.push(JSON.parse(data));
        }
      }
    } catch {
      // aborted
    }
  })();
  return { events, stop: () => controller.abort() };
}
