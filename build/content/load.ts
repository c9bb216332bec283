// The only place that reads content/ from disk. Everything after it is pure.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Source } from './frontmatter.js';

export interface ContentSources {
  site: Source | null;
  profile: Source | null;
  services: Source[];
  posts: Source[];
  projects: Source[];
  /** The directory as given, for messages. */
  dir: string;
}

async function readOptional(path: string): Promise<Source | null> {
  try {
    return { file: relative(process.cwd(), path) || path, text: await readFile(path, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function readFolder(dir: string): Promise<Source[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(names.map(async (n) => ({ file: relative(process.cwd(), join(dir, n)) || n, text: await readFile(join(dir, n), 'utf8') })));
}

export async function loadContent(dir: string): Promise<ContentSources> {
  const [site, profile, services, posts, projects] = await Promise.all([
    readOptional(join(dir, 'site.yaml')),
    readOptional(join(dir, 'profile.md')),
    readFolder(join(dir, 'services')),
    readFolder(join(dir, 'posts')),
    readFolder(join(dir, 'projects')),
  ]);
  return { site, profile, services, posts, projects, dir };
}
