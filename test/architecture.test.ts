// ARCHITECTURE.md names the files to go to; every one it names must exist,
// so the page cannot send a newcomer to a file that was moved or renamed.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

/** Paths in backticks, with the folder of a bare file name taken from the row or item it sits in. */
export function namedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const folder = /`((?:build|functions)\/[\w/.-]*\/)`/.exec(line)?.[1];
    for (const [, path] of line.matchAll(/`([\w./[\]-]+)`/g)) {
      if (/^(build|functions|test|docs)\//.test(path!) || /^[A-Z]+\.md$/.test(path!)) out.add(path!);
      else if (folder && /^[\w-]+\.(ts|css|md)$/.test(path!)) out.add(folder + path);
    }
  }
  return [...out];
}

describe('ARCHITECTURE.md', () => {
  const text = readFileSync(`${ROOT}ARCHITECTURE.md`, 'utf8');

  it('names only files and folders that exist', () => {
    const paths = namedPaths(text);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((p) => !existsSync(ROOT + p))).toEqual([]);
  });

  it('covers the five places a newcomer is sent, each naming files', () => {
    for (const what of ['An API endpoint', 'A content kind', 'A page', 'An MCP tool', 'A host']) {
      const item = text.split('\n- ').find((i) => i.startsWith(`**${what}:**`));
      expect(item, what).toBeDefined();
      expect(namedPaths(item!).length, what).toBeGreaterThan(1);
    }
  });

  it('is linked from the README', () => {
    expect(readFileSync(`${ROOT}README.md`, 'utf8')).toContain('](ARCHITECTURE.md)');
  });

  it('would catch a path that does not exist', () => {
    const paths = namedPaths('- **A page:** `build/core/pages/nope.ts` and `layout.ts` in `build/core/pages/`');
    expect(paths.sort()).toEqual(['build/core/pages/', 'build/core/pages/layout.ts', 'build/core/pages/nope.ts']);
    expect(paths.filter((p) => !existsSync(ROOT + p))).toEqual(['build/core/pages/nope.ts']);
  });
});
