// Incremental builds under random sequences of edits (D40, D56): after each
// step of a seeded sequence (a body, title, summary, tags or date changed, a
// post added, removed or drafted, a service, project or profile edited, the
// clock moved on), the build that reuses the cache and the previous dist has
// exactly the bytes of a clean build of the same content. The
// incremental-*.test.ts files check each kind of edit once; here they follow one another, so the journal
// of the record cache, the stamps, the patched search index, the spliced
// documents and the kept edge files meet the states earlier edits left.
import { readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';
import { fuzzBudget, fuzzRuns, fuzzSeed, recordFigures } from './helpers/fuzz.js';

const KINDS = [
  'body',
  'title',
  'summary',
  'tags',
  'date',
  'add',
  'remove',
  'draft',
  'service',
  'project',
  'profile',
  'clock',
  'broken',
] as const;
type Kind = (typeof KINDS)[number];
interface Step {
  kind: Kind;
  /** Which file, tag or date, taken modulo what there is. */
  pick: number;
  n: number;
}

const stepArb: fc.Arbitrary<Step> = fc.record({ kind: fc.constantFrom(...KINDS), pick: fc.nat(), n: fc.nat({ max: 999 }) });
const TAGS = ['email', 'ci', 'ssh', 'monorepo', 'fuzz-a', 'fuzz-b'];

/** The front matter's lines and the body of a content file. */
function split(text: string): { head: string[]; body: string } {
  const end = text.indexOf('\n---', 4);
  return { head: text.slice(4, end).split('\n'), body: text.slice(end + 4) };
}
const rejoin = (head: string[], body: string) => `---\n${head.join('\n')}\n---${body}`;

/** `head` with the field `name` (and a YAML list under it) replaced by `lines`, or `lines` added. */
function setField(head: string[], name: string, lines: string[]): string[] {
  const at = head.findIndex((l) => l.startsWith(`${name}:`));
  if (at === -1) return [...head, ...lines];
  let end = at + 1;
  while (end < head.length && head[end]!.startsWith('  ')) end++;
  return [...head.slice(0, at), ...lines, ...head.slice(end)];
}

async function markdownFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
}

/** Posts no other content file links to or names: removing or drafting one breaks no link (D2). */
async function unlinkedPosts(content: string): Promise<string[]> {
  const texts: string[] = [];
  for (const folder of ['posts', 'services', 'projects'])
    for (const f of await markdownFiles(join(content, folder))) texts.push(await readFile(join(content, folder, f), 'utf8'));
  texts.push(await readFile(join(content, 'profile.md'), 'utf8'));
  const posts = await markdownFiles(join(content, 'posts'));
  return posts.filter((f) => {
    const slug = f.slice(0, -3);
    return texts.filter((t) => t.includes(`/blog/${slug}`)).length === 0;
  });
}

async function edit(content: string, path: string, change: (text: string) => string): Promise<void> {
  const file = join(content, path);
  await writeFile(file, change(await readFile(file, 'utf8')));
}

/** Applies one step to the content folder; returns the build clock to use, and a line saying what it did. */
async function apply(content: string, step: Step, now: Date): Promise<{ now: Date; did: string }> {
  const posts = await markdownFiles(join(content, 'posts'));
  const post = `posts/${posts[step.pick % posts.length]!}`;
  const day = (k: number) => `202${3 + (k % 3)}-${String(1 + (k % 12)).padStart(2, '0')}-${String(1 + (k % 28)).padStart(2, '0')}`;
  switch (step.kind) {
    case 'body':
      await edit(content, post, (t) => `${t}\nA sentence added by the fuzzer, number ${step.n}.\n`);
      return { now, did: `${post}: body` };
    case 'title':
      await edit(content, post, (t) => {
        const { head, body } = split(t);
        return rejoin(setField(head, 'title', [`title: "Edited title ${step.n}"`]), body);
      });
      return { now, did: `${post}: title` };
    case 'summary':
      await edit(content, post, (t) => {
        const { head, body } = split(t);
        return rejoin(setField(head, 'summary', [`summary: "A summary the fuzzer wrote, ${step.n}."`]), body);
      });
      return { now, did: `${post}: summary` };
    case 'tags': {
      const tags = TAGS.filter((_, i) => (step.n >> i) & 1);
      await edit(content, post, (t) => {
        const { head, body } = split(t);
        return rejoin(setField(head, 'tags', tags.length ? ['tags:', ...tags.map((tag) => `  - ${tag}`)] : ['tags: []']), body);
      });
      return { now, did: `${post}: tags [${tags.join(', ')}]` };
    }
    case 'date':
      await edit(content, post, (t) => {
        const { head, body } = split(t);
        // An `updated` before the new date would be a content error (D2), not an incremental build's.
        return rejoin(setField(setField(head, 'date', [`date: ${day(step.n)}`]), 'updated', []), body);
      });
      return { now, did: `${post}: date ${day(step.n)}` };
    case 'add': {
      // A link to a published post: a draft's or a scheduled post's page does not exist (D2).
      const published: string[] = [];
      for (const f of posts) {
        const text = await readFile(join(content, 'posts', f), 'utf8');
        const date = /\ndate: (\S+)\n/.exec(text)?.[1] ?? '';
        if (!/\ndraft: true\n/.test(text) && date <= now.toISOString().slice(0, 10)) published.push(f);
      }
      const linked = published[step.pick % published.length]!.slice(0, -3);
      const file = `posts/fuzz-${step.n}.md`;
      await writeFile(
        join(content, file),
        `---\ntitle: "A post the fuzzer added, ${step.n}"\ndate: ${day(step.n)}\ntags:\n  - ${TAGS[step.n % TAGS.length]}\n---\n\nIt links to [an earlier post](/blog/${linked}).\n`,
      );
      return { now, did: `${file}: added` };
    }
    case 'remove':
    case 'draft': {
      const free = await unlinkedPosts(content);
      if (!free.length) return { now, did: 'no post to remove' };
      const target = `posts/${free[step.pick % free.length]!}`;
      if (step.kind === 'remove') await unlink(join(content, target));
      else
        await edit(content, target, (t) => {
          const { head, body } = split(t);
          return rejoin(setField(head, 'draft', ['draft: true']), body);
        });
      return { now, did: `${target}: ${step.kind === 'remove' ? 'removed' : 'drafted'}` };
    }
    case 'service':
    case 'project': {
      const folder = `${step.kind}s`;
      const files = await markdownFiles(join(content, folder));
      const file = `${folder}/${files[step.pick % files.length]!}`;
      await edit(content, file, (t) => `${t}\nA line the fuzzer added, ${step.n}.\n`);
      return { now, did: `${file}: body` };
    }
    case 'profile':
      await edit(content, 'profile.md', (t) => `${t}\nA line the fuzzer added, ${step.n}.\n`);
      return { now, did: 'profile.md: body' };
    case 'clock': {
      // Later the same day, or a day or two on.
      const hours = [3, 25, 49][step.n % 3]!;
      return { now: new Date(now.getTime() + hours * 3600_000), did: `clock +${hours} h` };
    }
    case 'broken':
      // Handled by the loop: a build that must fail and leave everything as it was.
      return { now, did: 'a post with a broken link, refused, then removed' };
  }
}

describe('incremental builds under random sequences of edits', () => {
  it('equal a clean build of the same content after every step', { timeout: fuzzBudget(300_000) }, async () => {
    const seed = fuzzSeed();
    const sequences = fc.sample(fc.array(stepArb, { minLength: 2, maxLength: 4 }), { seed, numRuns: fuzzRuns(3) });
    const started = performance.now();
    let steps = 0;
    for (const [i, sequence] of sequences.entries()) {
      const work = await tempDir('folio-incremental-fuzz-');
      const content = await copyContent();
      const cache = join(work, '.folio-cache');
      const out = join(work, 'dist');
      let now = NOW;
      const done: string[] = [];
      try {
        await build({ content, out, now, cache });
        for (const step of sequence) {
          const applied = await apply(content, step, now);
          now = applied.now;
          done.push(applied.did);
          if (step.kind === 'broken') {
            // A failed build leaves the previous dist as it was (D40), and the cache fit for the next build.
            const before = await treeHash(out);
            const bad = join(content, 'posts', `broken-${step.n}.md`);
            await writeFile(bad, `---\ntitle: "Broken"\ndate: 2024-01-01\n---\n\nSee [nothing](/blog/no-such-post-${step.n}).\n`);
            await expect(build({ content, out, now, cache })).rejects.toThrow(/no-such-post/);
            expect(await treeHash(out), `sequence ${i} (seed ${seed}): ${done.join('; ')}`).toEqual(before);
            await unlink(bad);
          }
          const what = `sequence ${i} (seed ${seed}): ${done.join('; ')}`;
          await build({ content, out, now, cache }).catch((error: Error) => {
            throw new Error(`${what}: ${error.message}`, { cause: error });
          });
          const clean = join(work, `clean-${steps++}`);
          await cleanBuild({ content, out: clean, now }, { cache, out });
          expect(await treeHash(out), what).toEqual(await treeHash(clean));
          await rm(clean, { recursive: true, force: true });
        }
      } finally {
        await rm(work, { recursive: true, force: true });
        await rm(content, { recursive: true, force: true });
      }
    }
    recordFigures({
      name: 'incremental builds: random edit sequences',
      target: 'build() with the cache and previous dist, against a clean build',
      inputs: steps,
      requests: 0,
      failures: 0,
      seed,
      ms: Math.round(performance.now() - started),
    });
  });
});
