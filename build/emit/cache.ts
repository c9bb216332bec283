// The content-hash cache (.folio-cache/): what each content file rendered to,
// keyed by a hash of the renderer and the file's path and text, so a warm
// build parses and renders only the files that changed. A record is a pure
// function of its key, so a hit gives exactly the bytes a miss would.
//
// The records themselves are in record-cache.ts.
import { createHash, hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import type { DocumentKind } from '../content/kinds.js';
import type { Source } from '../content/frontmatter.js';
import type { BuildState } from './build-state.js';
import type { History } from '../history.js';
import { deserializeFile, withWholeFile } from './whole-file.js';
import { makeDirs } from './make-dirs.js';

/** Bump when the shape of a record or of the cache files changes. */
export const FORMAT = 1;

/** Where the cache of an output directory lives: beside it, so one project keeps one cache. */
export function defaultCacheDir(out: string): string {
  return join(dirname(resolve(out)), '.folio-cache');
}

/** Writes `file` under a temporary name and renames it into place, so that a reader finds the old file or the new one, whole. */
export async function atomicWrite(file: string, body: Uint8Array | string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, body);
  await rename(tmp, file);
}

/** The packages whose output a record holds; a new version of any of them must miss. */
const RENDER_PACKAGES = [
  'gray-matter',
  'yaml',
  'unified',
  'micromark',
  'remark-parse',
  'remark-gfm',
  'remark-rehype',
  'rehype-sanitize',
  'rehype-highlight',
  'highlight.js',
  'rehype-stringify',
  'mdast-util-to-string',
];

export function packageVersion(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) return 'missing';
  }
}

let fingerprintValue: string | undefined;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/**
 * A hash of the code that turns content into output: the compiled CLI and
 * worker (lib/*.js) when folio runs compiled, which bundle the rendering
 * packages, else every TypeScript source under build/ and the versions of
 * those packages. Records and build states made by other code are never used.
 */
export function codeFingerprint(): string {
  if (fingerprintValue) return fingerprintValue;
  const here = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256').update(`folio-cache ${FORMAT}\n`);
  const compiled = ['cli.js', 'render-worker.js'].map((f) => join(here, f)).filter((f) => existsSync(f));
  const sources = compiled.length ? compiled : tsFiles(join(here, '..'));
  for (const file of sources) hash.update(file.slice(file.lastIndexOf('/'))).update(readFileSync(file));
  if (!compiled.length) for (const name of RENDER_PACKAGES) hash.update(`${name}@${packageVersion(name, here)}\n`);
  fingerprintValue = hash.digest('hex');
  return fingerprintValue;
}

export function recordKey(fingerprint: string, kind: DocumentKind, source: Source): string {
  // One call: at 10,000 sources, a hash object per source cost more than the hashing.
  return hash('sha256', `${fingerprint}\0${kind}\0${source.file}\0${source.text}`, 'hex');
}

/** What names the files the cache keeps per output directory (its state, history and spare output). */
export function outputKey(out: string): string {
  return createHash('sha1').update(resolve(out)).digest('hex').slice(0, 16);
}

/**
 * The record of what the builds of `out` published (D61), beside the state.
 * Unlike the state it is not tied to the code that built it: it is history,
 * and a new folio version must not forget what an old one removed.
 */
export function historyFile(dir: string, out: string): string {
  return join(dir, `history-${outputKey(out)}.json`);
}

export function loadHistory(dir: string, out: string): History | null {
  try {
    const history = JSON.parse(withWholeFile(historyFile(dir, out), (bytes) => bytes.toString('utf8'))) as History;
    return history.format === 1 ? history : null;
  } catch {
    return null;
  }
}

export async function saveHistory(dir: string, out: string, history: History): Promise<void> {
  const file = historyFile(dir, out);
  try {
    makeDirs(dir);
    await atomicWrite(file, JSON.stringify(history));
  } catch (error) {
    console.error(
      `folio: could not save the record of published items in ${dir} (${(error as Error).message}); the next build cannot list removals.`,
    );
  }
}

/** The state of the last build of `out`, beside the records; one file per output directory. */
function stateFile(dir: string, out: string): string {
  return join(dir, `state-${FORMAT}-${outputKey(out)}.bin`);
}

export function loadState(dir: string, out: string): BuildState | null {
  try {
    const state = deserializeFile(stateFile(dir, out)) as BuildState;
    return state.fingerprint === codeFingerprint() ? state : null;
  } catch {
    return null;
  }
}

/** The state as saveState writes it; a build serializes it while its writing threads finish (at 10,000 posts, 0.2 s). */
export function serializeState(state: BuildState): Uint8Array {
  return serialize(state);
}

/** Saves the state, or the bytes serializeState made of it. */
export async function saveState(dir: string, out: string, state: BuildState | Uint8Array): Promise<void> {
  const file = stateFile(dir, out);
  try {
    makeDirs(dir);
    await atomicWrite(file, state instanceof Uint8Array ? state : serializeState(state));
  } catch (error) {
    console.error(
      `folio: could not save the build state in ${dir} (${(error as Error).message}); the next build asks for every response again.`,
    );
    await rm(file, { force: true }).catch(() => undefined);
  }
}

export async function forgetState(dir: string, out: string): Promise<void> {
  await rm(stateFile(dir, out), { force: true }).catch(() => undefined);
}
