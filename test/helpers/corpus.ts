// Generated content trees for the fault and load tests: a valid site of any
// size, written in a few milliseconds, so that a test pays for the build it
// is about rather than for the sample's Markdown.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const PARAGRAPH =
  'I moved the mail relay behind a queue and measured bounce rates per provider for six weeks; the numbers below are what the logs said, not what the vendor promised. ';

export interface CorpusOptions {
  posts: number;
  /** Approximate size of each post body. */
  bodyBytes?: number;
  tags?: number;
}

/** Writes site.yaml (the sample's), a small profile and `posts` posts under dir. */
export async function writeCorpus(dir: string, options: CorpusOptions): Promise<string> {
  await mkdir(join(dir, 'posts'), { recursive: true });
  await copyFile('content/site.yaml', join(dir, 'site.yaml'));
  await writeFile(
    join(dir, 'profile.md'),
    [
      '---',
      'name: Ada Example',
      'headline: Independent platform engineer',
      'location: Lisbon, Portugal',
      'expertise: [email deliverability, SSH]',
      'availability: { status: available, note: From March }',
      'contact: { email: ada@example.com }',
      '---',
      '',
      'I help small teams with their build pipelines.',
      '',
    ].join('\n'),
  );
  const body = PARAGRAPH.repeat(Math.max(1, Math.ceil((options.bodyBytes ?? 400) / PARAGRAPH.length)));
  const tags = options.tags ?? 12;
  const writes: Promise<void>[] = [];
  for (let i = 0; i < options.posts; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(1 + (Math.floor(i / 28) % 12)).padStart(2, '0');
    const year = 2020 + (Math.floor(i / 336) % 6);
    writes.push(
      writeFile(
        join(dir, 'posts', `generated-${String(i).padStart(5, '0')}.md`),
        `---\ntitle: "Generated report ${i}"\ndate: ${year}-${month}-${day}\ntags: [generated, topic-${i % tags}]\n---\n\n${body}\n\nSee [the blog](/blog) for more.\n`,
      ),
    );
  }
  await Promise.all(writes);
  return dir;
}
