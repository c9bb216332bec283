// The icon every page links (D20, D43), in the built HTML: the site's own
// favicon from content/static/ with its type when there is one, else a
// monogram of the profile's initials in any script, never an empty one.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attr, byTag, parseHtml } from './helpers/html.js';
import { cleanBuild, NOW, tempDir } from './helpers/site.js';
import { writeSmallSite } from './helpers/small-site.js';

const ICO = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 0]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>\n';
/** Pages of every kind, and the not-found page, which static hosts serve for any unknown path. */
const PAGES = ['index.html', 'about.html', 'blog.html', 'blog/post-1.html', 'services/service-1.html', '404.html'];

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Builds a small site, changed by `edit`, and returns the icon links of each page in PAGES. */
async function iconsOf(edit: (content: string) => Promise<void>): Promise<Map<string, { href: string; type?: string }[]>> {
  const work = await tempDir('folio-favicon-');
  dirs.push(work);
  const content = join(work, 'content');
  await writeSmallSite(content, { posts: 1, services: 1, projects: 1 });
  await edit(content);
  await cleanBuild({ content, out: join(work, 'dist'), now: NOW });
  const icons = new Map<string, { href: string; type?: string }[]>();
  for (const page of PAGES) {
    const links = byTag(parseHtml(await readFile(join(work, 'dist', page), 'utf8')), 'link').filter((l) => attr(l, 'rel') === 'icon');
    icons.set(
      page,
      links.map((l) => ({ href: attr(l, 'href')!, ...(attr(l, 'type') ? { type: attr(l, 'type') } : {}) })),
    );
  }
  return icons;
}

/** The letters the monogram of each page shows (every page must show the same one). */
function monogramOf(icons: Map<string, { href: string }[]>): string {
  const shown = new Set<string>();
  for (const [page, links] of icons) {
    expect(links, page).toHaveLength(1);
    const { href } = links[0]!;
    expect(href, page).toMatch(/^data:image\/svg\+xml,/);
    shown.add(/<text[^>]*>([^<]*)<\/text>/.exec(decodeURIComponent(href.slice(href.indexOf(',') + 1)))![1]!);
  }
  expect(shown.size).toBe(1);
  return [...shown][0]!;
}

const withName = (name: string, title?: string) => async (content: string) => {
  const profile = join(content, 'profile.md');
  await writeFile(profile, (await readFile(profile, 'utf8')).replace(/^name: .*$/m, `name: "${name}"`));
  if (title === undefined) return;
  const site = join(content, 'site.yaml');
  await writeFile(site, (await readFile(site, 'utf8')).replace(/^title: .*$/m, `title: "${title}"`));
};

describe('favicon (D20, D43)', () => {
  it("links the site's own favicons from content/static/, each with its type, and generates no monogram", async () => {
    const icons = await iconsOf(async (content) => {
      await mkdir(join(content, 'static'));
      await writeFile(join(content, 'static/favicon.ico'), ICO);
      await writeFile(join(content, 'static/favicon.svg'), SVG);
      await writeFile(join(content, 'static/favicon.png'), PNG);
    });
    for (const [page, links] of icons) {
      // The SVG last: browsers take the last icon they can show.
      expect(links, page).toEqual([
        { href: '/favicon.ico', type: 'image/x-icon' },
        { href: '/favicon.png', type: 'image/png' },
        { href: '/favicon.svg', type: 'image/svg+xml' },
      ]);
    }
  });

  it('links a favicon.png alone, and ignores a favicon below the static root', async () => {
    const icons = await iconsOf(async (content) => {
      await mkdir(join(content, 'static/icons'), { recursive: true });
      await writeFile(join(content, 'static/favicon.png'), PNG);
      await writeFile(join(content, 'static/icons/favicon.ico'), ICO);
    });
    for (const [page, links] of icons) expect(links, page).toEqual([{ href: '/favicon.png', type: 'image/png' }]);
  });

  it('without a favicon, shows the initials of the name', async () => {
    expect(monogramOf(await iconsOf(async () => {}))).toBe('TP');
  });

  it('keeps letters of any script, in capitals, composed as one character each', async () => {
    // Written decomposed (E + combining acute), as some editors save it.
    expect(monogramOf(await iconsOf(withName('e\u0301lodie ørsted')))).toBe('ÉØ');
    expect(monogramOf(await iconsOf(withName('Σοφία Παπαδοπούλου')))).toBe('ΣΠ');
  });

  it('is never empty: the title when the name has no letter, else a dot', async () => {
    expect(monogramOf(await iconsOf(withName('— ·')))).toBe('SS');
    expect(monogramOf(await iconsOf(withName('— ·', '— —')))).toBe('•');
  });
});
