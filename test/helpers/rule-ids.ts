// The D58 check: every rule id cited in the repository is defined in
// docs/decisions.md. Pure functions over text, so the test can show that the
// check fails on a synthetic citation as well as pass on the real tree.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Rule ids cited in a text: `D38`, and both ends of a range such as `D4–D18`. */
export function citedIds(text: string): number[] {
  return [...text.matchAll(/\bD(\d{1,3})\b/g)].map((m) => Number(m[1]));
}

/** Ids that docs/decisions.md defines: list items that start with `**D<n>.`. */
export function definedIds(decisions: string): Set<number> {
  return new Set([...decisions.matchAll(/^- \*\*D(\d{1,3})\./gm)].map((m) => Number(m[1])));
}

export interface Citation {
  file: string;
  line: number;
  text: string;
}

/** Citations of ids the decisions do not define, and references to the spec's parts (`Part 1 §7`) that only the spec could resolve. */
export function unresolved(files: Record<string, string>, defined: Set<number>): Citation[] {
  const out: Citation[] = [];
  for (const [file, text] of Object.entries(files)) {
    text.split('\n').forEach((line, i) => {
      const missing = citedIds(line).filter((id) => !defined.has(id));
      for (const id of missing) out.push({ file, line: i + 1, text: `D${id}` });
      const part = /\bPart [1-3]b?\b/.exec(line);
      if (part) out.push({ file, line: i + 1, text: part[0] });
    });
  }
  return out;
}

/** Every text file under the given folders (relative to root), skipping fixtures' generated output. */
export async function readTree(
  root: string,
  dirs: string[],
  extensions = /\.(ts|js|mjs|md|json|yaml|toml)$/,
): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(root, rel), { withFileTypes: true })) {
      const sub = `${rel}/${entry.name}`;
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) await walk(sub);
      else if (extensions.test(entry.name)) files[sub] = await readFile(join(root, sub), 'utf8');
    }
  };
  for (const dir of dirs) await walk(dir);
  return files;
}
