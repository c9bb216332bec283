// A small generated content tree, for tests of small and empty sites (D59).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SMALL_SITE_URL = 'https://small.example';

export interface Counts {
  posts: number;
  services: number;
  projects: number;
}

/** A content tree of one consultant with `n` of each kind; posts carry no tags. */
export async function writeSmallSite(dir: string, n: Counts): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'site.yaml'),
    `title: Small Site\ndescription: A small test site.\nsite_url: ${SMALL_SITE_URL}\nlanguage: en\n`,
  );
  await writeFile(
    join(dir, 'profile.md'),
    '---\nname: Test Person\nheadline: Data engineer\nlocation: Oslo\nexpertise: [data pipelines]\navailability: { status: available }\ncontact: { email: t@small.example }\n---\n\nHello.\n',
  );
  for (const kind of ['posts', 'services', 'projects'] as const) {
    if (!n[kind]) continue;
    await mkdir(join(dir, kind));
    for (let i = 1; i <= n[kind]; i++) {
      const front =
        kind === 'posts'
          ? `title: Post ${i}\ndate: 2026-01-0${i + 1}\nsummary: Post number ${i}.`
          : kind === 'services'
            ? `title: Service ${i}\nsummary: Service number ${i}.\nbest_fit: [a team that needs it]`
            : `title: Project ${i}\nstatus: live\nsummary: Project number ${i}.`;
      await writeFile(join(dir, kind, `${kind.slice(0, -1)}-${i}.md`), `---\n${front}\n---\n\nBody ${i}.\n`);
    }
  }
}
