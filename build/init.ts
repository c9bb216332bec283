// folio init [dir] (D42): writes the starter site into dir, or nothing at all
// when dir/content already holds something. The files are written to a
// staging folder first and moved into place, so a failure leaves no half site.
import { appendFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { gitignoreLines, starterFiles } from './starter.js';

export interface InitResult {
  /** Paths written, relative to dir. */
  written: string[];
  /** The three commands to run next, from the current directory. */
  next: string[];
}

/** dir/content exists and is not empty (or is a file): init would overwrite someone's site. */
export class InitRefused extends Error {
  constructor(
    readonly content: string,
    what = 'is not empty',
  ) {
    super(`${content} already exists and ${what}; folio init writes nothing over an existing site.`);
    this.name = 'InitRefused';
  }
}

/** Why init may not write dir: it holds files, or is a file itself; null when it is empty or missing. */
async function taken(dir: string): Promise<string | null> {
  try {
    return (await readdir(dir)).length === 0 ? null : 'is not empty';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR') return 'is a file, not a folder';
    throw error;
  }
}

/** A path as the user should type it: relative to the working directory, with forward slashes. */
function shown(path: string): string {
  return relative(process.cwd(), path).split('\\').join('/') || '.';
}

export async function init(dir: string, today: string): Promise<InitResult> {
  const root = resolve(dir);
  const content = join(root, 'content');
  const why = await taken(content);
  // content/ under a file: the file is what is in the way.
  const inTheWay = why && (await stat(root).catch(() => null))?.isFile() ? root : content;
  if (why) throw new InitRefused(shown(inTheWay), why);
  await mkdir(root, { recursive: true });
  const files = starterFiles(today);
  const staging = await mkdtemp(join(root, '.folio-init-'));
  try {
    for (const file of files) {
      const path = join(staging, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.body);
    }
    // An empty content/ may be there (init refuses only a non-empty one).
    await rm(content, { recursive: true, force: true });
    await rename(join(staging, 'content'), content);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const written = files.map((f) => f.path);
  const ignore = join(root, '.gitignore');
  const existing = await readFile(ignore, 'utf8').catch(() => null);
  const lines = gitignoreLines(existing);
  if (lines.length) {
    await appendFile(ignore, `${existing && !existing.endsWith('\n') ? '\n' : ''}${lines.join('\n')}\n`);
    written.push('.gitignore');
  }
  const at = shellWord(shown(root));
  const next =
    at === '.'
      ? ['npx folio check', 'npx folio build', 'npx folio serve']
      : [
          `npx folio check --content ${at}/content`,
          `npx folio build --content ${at}/content --out ${at}/dist`,
          `npx folio serve --dir ${at}/dist`,
        ];
  return { written, next };
}

/** A path as a shell reads it back: quoted when it holds a space, a quote or anything else a shell gives a meaning. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
