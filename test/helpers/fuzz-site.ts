// The small valid site the content fuzzers corrupt (content-fuzz*.test.ts,
// image-fuzz.test.ts), as path → bytes, and what must hold of every problem a
// build of it reports (D2): path:line:column inside the file, a one-line
// hint, no stack trace.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Source } from '../../build/content/frontmatter.js';
import type { ContentSources } from '../../build/content/load.js';
import { formatProblem, type Problem } from '../../build/content/problems.js';
import { folio, type CliResult } from './cli.js';

/** The build clock of every fuzz build. */
export const NOW = new Date('2026-11-22T00:00:00Z');

/** `folio build` through the CLI, on the fuzz builds' clock. */
export function buildCli(content: string, out: string): Promise<CliResult> {
  return folio('build', '--content', content, '--out', out, '--now', NOW.toISOString().slice(0, 10));
}

/** A content tree as path → bytes; corruptions edit it. */
export type Tree = Record<string, string | Uint8Array>;

export const text = (v: string | Uint8Array) => (typeof v === 'string' ? v : Buffer.from(v).toString('utf8'));

export const POSTS = ['first-post', 'second-post', 'third-post', 'fourth-post', 'fifth-post'];

function post(slug: string, i: number): string {
  const next = POSTS[(i + 1) % POSTS.length];
  return [
    '---',
    `title: "Report ${i}: what the logs said"`,
    `date: 2025-0${1 + i}-1${i}`,
    'tags:',
    '  - email',
    `  - topic-${i % 2}`,
    'summary: One sentence on what happened.',
    '---',
    '',
    `I measured it for six weeks. See [the next report](/blog/${next}) and [the relay](/projects/relay).`,
    '',
    '## What changed',
    '',
    '- one',
    '- two',
    '',
    '| a | b |',
    '| - | - |',
    '| 1 | 2 |',
    '',
  ].join('\n');
}

const FILES: Record<string, string> = {
  'profile.md':
    '---\nname: Ada Example\nheadline: Independent platform engineer\nlocation: Lisbon, Portugal\nexpertise:\n  - email deliverability\n  - SSH\navailability:\n  status: available\n  note: From March\ncontact:\n  email: ada@example.com\n---\n\nI help small teams. Start with [the first report](/blog/first-post).\n',
  'services/audit.md':
    '---\ntitle: Deliverability audit\nsummary: One sentence on the consulting area.\nbest_fit:\n  - a SaaS whose invoices land in spam\norder: 1\n---\n\nWhat the audit covers, see [the relay](/projects/relay).\n',
  'projects/relay.md':
    '---\ntitle: Mail relay\nstatus: live\nsummary: A relay for a B2B SaaS.\nurl: https://example.com\nstarted: 2024-03\ntags: [email]\n---\n\nThe relay. See [the second report](/blog/second-post).\n',
  'projects/old-tool.md':
    '---\ntitle: Old tool\nstatus: sunset\nsummary: Retired.\nstarted: 2019-03\nended: 2024-05\n---\n\nRetired in 2024.\n',
  ...Object.fromEntries(POSTS.map((slug, i) => [`posts/${slug}.md`, post(slug, i)])),
};

export async function writeTree(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
  }
}

/** The site: the sample's site.yaml and the files above. */
export async function baseTree(): Promise<Tree> {
  return { 'site.yaml': await readFile('content/site.yaml', 'utf8'), ...FILES };
}

function lineCount(bytes: string | Uint8Array | undefined): number {
  return bytes === undefined ? 1 : text(bytes).split('\n').length;
}

/** What must hold for every reported problem (D2). */
export function problemViolations(problems: Problem[], tree: Tree, dir: string): string[] {
  const out: string[] = [];
  for (const p of problems) {
    const rel = p.file.startsWith(`${dir}/`) ? p.file.slice(dir.length + 1) : p.file;
    const where = formatProblem(p).split('\n');
    if (!/^.+:\d+:\d+: .+$/.test(where[0]!)) out.push(`not path:line:column: message: ${where[0]}`);
    if (!/^ {2}hint: \S.*$/.test(where[1] ?? '') || where.length !== 2) out.push(`no one-line hint: ${JSON.stringify(where.slice(1))}`);
    if (!(rel in tree) && rel !== 'site.yaml' && rel !== 'profile.md') out.push(`names a file that is not in the content: ${p.file}`);
    if (!Number.isInteger(p.line) || p.line < 1 || p.line > lineCount(tree[rel]) + 1)
      out.push(`line ${p.line} is outside ${rel} (${lineCount(tree[rel])} lines)`);
    if (!Number.isInteger(p.column) || p.column < 1) out.push(`column ${p.column} in ${rel}`);
    if (/\n\s+at /.test(p.message) || /\n\s+at /.test(p.hint)) out.push(`a stack trace in the message of ${rel}`);
  }
  return out;
}

export function sourcesOf(tree: Tree, dir: string): ContentSources {
  const src = (path: string): Source => ({ file: `${dir}/${path}`, text: text(tree[path]!) });
  const folder = (name: string) =>
    Object.keys(tree)
      .filter((p) => p.startsWith(`${name}/`))
      .sort()
      .map(src);
  return {
    dir,
    site: 'site.yaml' in tree ? src('site.yaml') : null,
    profile: 'profile.md' in tree ? src('profile.md') : null,
    services: folder('services'),
    posts: folder('posts'),
    projects: folder('projects'),
  };
}

/** stderr of a failed build: problem and hint lines in pairs, folio's own notes, nothing else. */
export function stderrViolations(stderr: string): string[] {
  const out: string[] = [];
  const lines = stderr.split('\n').filter((l) => l !== '' && !/^\d+ content problems?:$/.test(l) && !l.startsWith('folio: '));
  if (/^\s+at /m.test(stderr)) out.push('a stack trace');
  if (lines.length === 0) out.push('no problem reported');
  for (let i = 0; i < lines.length; i += 2) {
    if (!/^.+:\d+:\d+: .+$/.test(lines[i]!)) out.push(`not path:line:column: message: ${lines[i]}`);
    if (!/^ {2}hint: \S/.test(lines[i + 1] ?? '')) out.push(`no hint after: ${lines[i]}`);
  }
  return out;
}
