// Bad input for D43, D46 and D48 through the real CLI: each is a content
// error with `path:line:column: message` and a hint, exit 1, and the previous
// dist/ left byte-identical (D2, D40).
import { mkdir, mkdtemp, open, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STYLESHEET } from '../build/core/pages/style.js';
import { brokenSample, type BrokenSample } from './helpers/broken.js';

let sample: BrokenSample;
beforeAll(async () => {
  sample = await brokenSample();
});
afterAll(() => sample.close());

/** A broken copy of the sample, built (and checked) over the good dist. */
const breakWith = (edit: (dir: string) => Promise<void>) => sample.breakWith(edit, { check: true });

/** The line (1-based) of the first line of `text` that matches. */
const lineOf = (text: string, re: RegExp) => text.split('\n').findIndex((l) => re.test(l)) + 1;

/** A custom property of the built-in stylesheet's light scheme (before its dark media query). */
const cssVar = (css: string, name: string) =>
  new RegExp(`--${name}: (#[0-9a-f]{6})`).exec(css.slice(0, css.indexOf('prefers-color-scheme: dark')))![1]!;

/** WCAG 2 contrast, written here from the definition rather than imported. */
function wcag(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

async function setTheme(dir: string, theme: string) {
  const file = join(dir, 'site.yaml');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace(/^theme:\n(?: {2}.*\n)*/m, theme));
}

describe('static files (D43)', () => {
  it('a static file at a generated address is an error naming the file', async () => {
    const r = await breakWith(async (d) => {
      await mkdir(join(d, 'static'), { recursive: true });
      await writeFile(join(d, 'static/llms.txt'), 'mine\n');
    });
    expect(r.stderr).toContain(
      `${r.rel}/static/llms.txt:1:1: This static file would be served at /llms.txt, an address folio generates itself.`,
    );
    expect(r.stderr).toMatch(/hint: Rename or move it/);
  });

  it('a static file where a page is written (blog.html, index.html) is an error', async () => {
    const r = await breakWith(async (d) => {
      await mkdir(join(d, 'static'), { recursive: true });
      await writeFile(join(d, 'static/blog.html'), '<p>mine</p>\n');
      await writeFile(join(d, 'static/index.html'), '<p>mine</p>\n');
    });
    expect(r.stderr).toContain(
      `${r.rel}/static/blog.html:1:1: This static file would be written where the build writes the page at /blog.`,
    );
    expect(r.stderr).toContain(`${r.rel}/static/index.html:1:1: This static file would be written where the build writes the page at /.`);
  });

  it('a static file where the build writes a folder, or under a page, or under /media/, is an error (check agrees with build)', async () => {
    const r = await breakWith(async (d) => {
      await mkdir(join(d, 'static/blog.html'), { recursive: true });
      await mkdir(join(d, 'static/media'), { recursive: true });
      await writeFile(join(d, 'static/assets'), 'a file named like a folder\n');
      await writeFile(join(d, 'static/.well-known-not'), 'fine\n');
      await writeFile(join(d, 'static/blog.html/notes.txt'), 'mine\n');
      await writeFile(join(d, 'static/media/logo.png'), 'mine\n');
    });
    expect(r.stderr).toContain(
      `${r.rel}/static/assets:1:1: This static file would be written where the build writes the folder /assets/ of its own files.`,
    );
    expect(r.stderr).toContain(
      `${r.rel}/static/blog.html/notes.txt:1:1: This static file would be written where the build writes the page at /blog.`,
    );
    expect(r.stderr).toContain(
      `${r.rel}/static/media/logo.png:1:1: This static file would be served at /media/logo.png, an address folio generates itself.`,
    );
    expect(r.stderr).not.toContain('well-known-not');
    expect(r.stderr).not.toMatch(/EISDIR|ENOTDIR/);
  });

  it('a static link outside the content folder, to a folder holding it, or to nothing, is an error; one inside it is not', async () => {
    const outside = join(await mkdtemp(join(tmpdir(), 'folio-secret-')), 'secret.txt');
    await writeFile(outside, 'CI_TOKEN=hunter2\n');
    const r = await breakWith(async (d) => {
      await mkdir(join(d, 'static/files'), { recursive: true });
      await symlink(outside, join(d, 'static/files/env.txt'));
      await symlink(join(d, 'no-such-file'), join(d, 'static/files/gone.txt'));
      await symlink(join(d, 'profile.md'), join(d, 'static/files/profile.txt'));
      await symlink(join(d, 'static'), join(d, 'static/files/loop'));
    });
    expect(r.stderr).toContain(`${r.rel}/static/files/env.txt:1:1: This static file is a link to ${outside}, outside the content folder`);
    expect(r.stderr).toContain(`${r.rel}/static/files/gone.txt:1:1: This static file is a link that leads nowhere (ENOENT).`);
    // A folder that holds the link: walked, it would publish itself inside itself without end.
    expect(r.stderr).toMatch(
      new RegExp(`${r.rel}/static/files/loop:1:1: This static file is a link to \\S+/static, a folder that holds the link`),
    );
    expect(r.stderr).not.toContain('loop/loop');
    expect(r.stderr).not.toContain('profile.txt');
    expect(r.stderr).not.toContain('hunter2');
  });

  it('a static file over 25 MiB is an error', async () => {
    const r = await breakWith(async (d) => {
      await mkdir(join(d, 'static'), { recursive: true });
      const file = await open(join(d, 'static/talk.mp4'), 'w');
      await file.truncate(25 * 1024 * 1024 + 1);
      await file.close();
    });
    expect(r.stderr).toContain(
      `${r.rel}/static/talk.mp4:1:1: This static file is 25.0 MiB, over the 25 MiB a file may have on Cloudflare Pages.`,
    );
    expect(r.stderr).toMatch(/hint: Host it elsewhere/);
  });
});

describe('theme (D46)', () => {
  it('a low-contrast accent names both colours, the ratio and an alternative that passes on every background links sit on', async () => {
    const r = await breakWith((d) => setTheme(d, 'theme:\n  accent: "#7fb0d0"\n'));
    const line = 1 + lineOf(await readFile('content/site.yaml', 'utf8'), /^theme:/);
    const m = new RegExp(
      `${r.rel}/site\\.yaml:${line}:3: \`theme\\.accent\` #7fb0d0 on the light (page|panel) background (#[0-9a-f]{6}) has a contrast of (\\d\\.\\d\\d):1, below the 4\\.5:1 WCAG AA asks of text\\.\\n  hint: Use (#[0-9a-f]{6}) \\((\\d+\\.\\d\\d):1 or more on both backgrounds\\)`,
    ).exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const [, , bg, ratio, better, betterRatio] = m!;
    expect(Number(ratio)).toBeCloseTo(Math.floor(wcag('#7fb0d0', bg!) * 100) / 100, 2);
    // The page's and the panels' backgrounds, as the built-in stylesheet has them (links sit on both).
    for (const background of [cssVar(STYLESHEET, 'bg'), cssVar(STYLESHEET, 'surface')])
      expect(wcag(better!, background)).toBeGreaterThanOrEqual(4.5);
    expect(Number(betterRatio)).toBeGreaterThanOrEqual(4.5);
    expect(r.check).toContain('#7fb0d0');
  });

  it('an accent that reads on the page but not on the panels (the table of contents, availability) is an error', async () => {
    // #24853f reads 4.54:1 on the light page background and 4.19:1 on the panels.
    expect(wcag('#24853f', cssVar(STYLESHEET, 'bg'))).toBeGreaterThanOrEqual(4.5);
    expect(wcag('#24853f', cssVar(STYLESHEET, 'surface'))).toBeLessThan(4.5);
    const r = await breakWith((d) => setTheme(d, 'theme:\n  accent: "#24853f"\n'));
    expect(r.stderr).toMatch(/`theme\.accent` #24853f on the light panel background #[0-9a-f]{6} has a contrast of 4\.1\d:1/);
  });

  it('a dark accent that does not read on the dark background is an error too', async () => {
    const r = await breakWith((d) => setTheme(d, 'theme:\n  accent: "#1d6b5f"\n  accent_dark: "#334455"\n'));
    const m =
      /`theme\.accent_dark` #334455 on the dark (?:page|panel) background (#[0-9a-f]{6}) has a contrast of [\d.]+:1.*\n {2}hint: Use (#[0-9a-f]{6})/.exec(
        r.stderr,
      );
    expect(m, r.stderr).not.toBeNull();
    expect(wcag(m![2]!, m![1]!)).toBeGreaterThanOrEqual(4.5);
    expect(wcag('#334455', m![1]!)).toBeLessThan(4.5);
  });

  it('an invalid colour or font is an error at its line', async () => {
    const r = await breakWith((d) => setTheme(d, 'theme:\n  accent: teal\n  font: comic\n'));
    const start = lineOf(await readFile('content/site.yaml', 'utf8'), /^theme:/);
    expect(r.stderr).toContain(`${r.rel}/site.yaml:${start + 1}:3: \`theme.accent\` is "teal", which is not a hex colour.`);
    expect(r.stderr).toMatch(/hint: Write it as a quoted hex colour/);
    expect(r.stderr).toContain(`${r.rel}/site.yaml:${start + 2}:3: \`theme.font\` is "comic", which is not one of sans, serif, mono.`);
  });

  it('an unquoted hex colour (read as a YAML comment, so as nothing) is an error, not a silent default', async () => {
    const r = await breakWith((d) => setTheme(d, 'theme:\n  accent: #1a7f37\n'));
    const start = lineOf(await readFile('content/site.yaml', 'utf8'), /^theme:/);
    expect(r.stderr).toContain(`${r.rel}/site.yaml:${start + 1}:3: \`theme.accent\` is empty: an unquoted colour is read as nothing`);
    expect(r.stderr).toMatch(/hint: Quote it, e\.g\. accent: "#1a7f37"/);
  });
});

describe('site.yaml (D2)', () => {
  it('a language that is not a language tag is an error at its line', async () => {
    const r = await breakWith(async (d) => {
      const file = join(d, 'site.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^language: .*$/m, 'language: english please'));
    });
    const line = lineOf(await readFile('content/site.yaml', 'utf8'), /^language:/);
    expect(r.stderr).toContain(`${r.rel}/site.yaml:${line}:1: \`language\` "english please" is not a language tag.`);
    expect(r.stderr).toMatch(/hint: Write a BCP 47 tag/);
  });
});

describe('aliases (D48)', () => {
  it('an alias that is a live address is an error at the alias', async () => {
    const file = 'posts/bounce-handling.md';
    const r = await breakWith(async (d) => {
      const text = await readFile(join(d, file), 'utf8');
      await writeFile(join(d, file), text.replace(/^date:/m, 'aliases:\n  - /blog/old-bounces\n  - /projects/jumpcfg\ndate:'));
    });
    const line = lineOf(await readFile(`content/${file}`, 'utf8'), /^date:/) + 2;
    expect(r.stderr).toContain(
      `${r.rel}/${file}:${line}:5: The alias /projects/jumpcfg is a live address: /projects/jumpcfg is served by this site, so it cannot redirect.`,
    );
    expect(r.stderr).toMatch(/hint: Remove the alias/);
  });

  it('an alias another file already has is an error naming both files', async () => {
    const r = await breakWith(async (d) => {
      for (const file of ['posts/bounce-handling.md', 'posts/dmarc-p-reject-rollout.md']) {
        const text = await readFile(join(d, file), 'utf8');
        await writeFile(join(d, file), text.replace(/^date:/m, 'aliases: [/blog/email-notes]\ndate:'));
      }
    });
    expect(r.stderr).toContain(`${r.rel}/posts/dmarc-p-reject-rollout.md:`);
    expect(r.stderr).toContain(`The alias /blog/email-notes is also an alias in ${r.rel}/posts/bounce-handling.md (/blog/email-notes).`);
    expect(r.stderr).toMatch(/hint: An old address can lead to one page only/);
  });

  it('an alias that is not a site path is an error with the path to write instead', async () => {
    const r = await breakWith(async (d) => {
      const text = await readFile(join(d, 'projects/jumpcfg.md'), 'utf8');
      await writeFile(join(d, 'projects/jumpcfg.md'), text.replace(/^status:/m, 'aliases: [old-jumpcfg]\nstatus:'));
    });
    expect(r.stderr).toMatch(
      new RegExp(
        `${r.rel}/projects/jumpcfg\\.md:\\d+:\\d+: The alias "old-jumpcfg" is not a site-relative path\\.\\n  hint: Write it as a path from the site root, e\\.g\\. /old-jumpcfg`,
      ),
    );
  });

  it('an alias on an address folio or a host keeps for itself is an error: it would answer 301 where the functions read their files', async () => {
    const reserved = ['/_folio/edge/head.json', '/media/x.png', '/_headers', '/mcp', '/vercel.json'];
    const r = await breakWith(async (d) => {
      const text = await readFile(join(d, 'projects/jumpcfg.md'), 'utf8');
      await writeFile(join(d, 'projects/jumpcfg.md'), text.replace(/^status:/m, `aliases: [${reserved.join(', ')}]\nstatus:`));
    });
    for (const path of reserved)
      expect(r.stderr).toContain(
        `The alias "${path}" is an address folio or a host keeps for itself (the files under /_folio/ and /media/`,
      );
  });

  it('an alias written as a whole URL, or with letters outside ASCII, gets a hint it can follow', async () => {
    const r = await breakWith(async (d) => {
      const text = await readFile(join(d, 'projects/jumpcfg.md'), 'utf8');
      await writeFile(
        join(d, 'projects/jumpcfg.md'),
        text.replace(/^status:/m, 'aliases: [https://old.example/tools/jumpcfg, /werkzeuge/über]\nstatus:'),
      );
    });
    expect(r.stderr).toContain(
      'The alias "https://old.example/tools/jumpcfg" is not a site-relative path.\n  hint: An alias is an address of this site: write its path, e.g. /tools/jumpcfg.',
    );
    expect(r.stderr).toContain(
      'The alias "/werkzeuge/über" holds a character outside ASCII, which browsers send percent-encoded.\n  hint: Write it percent-encoded, as browsers request it: /werkzeuge/%C3%BCber',
    );
  });
});
