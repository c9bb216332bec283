// D44/D45 bad input through the real CLI: each image problem is a content
// error at `path:line:column` with a hint, exit code 1, no stack trace, and
// the previous dist/ byte-identical (nothing partial from the image work).
import { mkdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyContent, tempDir } from './helpers/site.js';
import { folio } from './helpers/cli.js';
import { brokenSample, type BrokenSample } from './helpers/broken.js';

const POST = 'posts/retiring-pid-files.md';
let sample: BrokenSample;
beforeAll(async () => {
  sample = await brokenSample();
});
afterAll(() => sample.close());

/** A broken copy of the sample, built over the good dist. */
const breakWith = (edit: (dir: string) => Promise<void>) => sample.breakWith(edit);

/** Appends a paragraph with `markdown` to the post; returns the line it is on. */
async function appendImage(dir: string, markdown: string): Promise<number> {
  const file = join(dir, POST);
  const text = await readFile(file, 'utf8');
  const body = `${text.replace(/\n*$/, '')}\n\n${markdown}\n`;
  await writeFile(file, body);
  return body.split('\n').length - 1;
}

/** Builds with one appended image line and returns the CLI's stderr and the expected location prefix. */
async function withImage(markdown: string, setup: (dir: string) => Promise<void> = async () => {}) {
  let line = 0;
  const r = await breakWith(async (d) => {
    await setup(d);
    line = await appendImage(d, markdown);
  });
  return { ...r, at: `${r.rel}/${POST}:${line}:1: ` };
}

describe('image errors (D44)', () => {
  it('a missing image file', async () => {
    const r = await withImage('![A diagram](./img/nope.png)');
    expect(r.stderr).toContain(`${r.at}The image ./img/nope.png is missing: `);
    expect(r.stderr).toContain('does not exist');
    expect(r.stderr).toMatch(/hint: Check the path and the file name \(a relative path is read from the Markdown file's folder/);
  });

  it('a missing file under static/ for a path starting with /', async () => {
    const r = await withImage('![A diagram](/diagrams/nope.svg)');
    expect(r.stderr).toContain(`${r.at}The image /diagrams/nope.svg is missing: `);
    expect(r.stderr).toContain(`/static/diagrams/nope.svg does not exist`);
    expect(r.stderr).toMatch(/hint: .*a path starting with \/ is read from .*\/static\//);
  });

  it('an empty alt text', async () => {
    const r = await withImage('![](./img/bounce-classifier.svg)', (d) =>
      mkdir(join(d, 'posts/img'), { recursive: true }).then(() =>
        writeFile(join(d, 'posts/img/bounce-classifier.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      ),
    );
    expect(r.stderr).toContain(`${r.at}The image ./img/bounce-classifier.svg has no alt text.`);
    expect(r.stderr).toMatch(/hint: Say what it shows, e\.g\. !\[.+\]\(\.\/img\/bounce-classifier\.svg\)/);
  });

  it('a relative path that leaves content/', async () => {
    const r = await withImage('![Secrets](../../outside.png)', async (d) => writeFile(join(d, '..', 'outside.png'), 'x'));
    expect(r.stderr).toContain(`${r.at}The image ../../outside.png is outside the content folder`);
    expect(r.stderr).toMatch(/hint: Move the file into /);
  });

  it('a / path that climbs out of static/ and content/', async () => {
    const r = await withImage('![Secrets](/../../../etc/hostname)');
    expect(r.stderr).toContain(`${r.at}The image /../../../etc/hostname is outside the content folder`);
  });

  it('a symbolic link inside content/ that points outside it', async () => {
    const r = await withImage('![Linked](./linked.png)', async (d) => {
      const target = join(await tempDir(), 'real.png');
      await writeFile(target, 'x');
      await symlink(target, join(d, 'posts/linked.png'));
    });
    expect(r.stderr).toContain(`${r.at}The image ./linked.png is a link to a file outside the content folder.`);
  });

  it('an unsupported file type', async () => {
    const r = await withImage('![Old bitmap](./old.bmp)', (d) => writeFile(join(d, 'posts/old.bmp'), Buffer.from('BM0000')));
    expect(r.stderr).toContain(`${r.at}The image ./old.bmp is a .bmp file, which folio does not publish as an image.`);
    expect(r.stderr).toContain('hint: Convert it to PNG, JPEG, GIF, WebP, AVIF or SVG');
  });

  it('a corrupt image file: bytes that are no image', async () => {
    const r = await withImage('![Broken](./broken.png)', (d) =>
      writeFile(join(d, 'posts/broken.png'), Buffer.from('this is not a PNG at all, just text\n'.repeat(20))),
    );
    expect(r.stderr).toContain(`${r.at}The image ./broken.png cannot be used: it cannot be read as an image`);
    expect(r.stderr).toContain('hint: Open it in an image viewer and export it again');
  });

  it('a truncated PNG (a valid header, the pixels cut off)', async () => {
    const png = await readFile('content/posts/img/proxyjump-session.png');
    const r = await withImage('![Cut off](./cut.png)', (d) =>
      writeFile(join(d, 'posts/cut.png'), png.subarray(0, Math.floor(png.length / 3))),
    );
    expect(r.stderr).toContain(`${r.at}The image ./cut.png cannot be used: it is damaged or incomplete`);
  });

  it('an image whose bytes are another type than its name says', async () => {
    const svg = await readFile('content/posts/img/affected-pipeline.svg');
    const r = await withImage('![Misnamed](./misnamed.png)', (d) => writeFile(join(d, 'posts/misnamed.png'), svg));
    expect(r.stderr).toContain(`${r.at}The image ./misnamed.png cannot be used: it holds SVG data, not PNG.`);
  });

  it('an image over 25 MiB', async () => {
    const r = await withImage('![Huge](./huge.png)', async (d) => {
      await writeFile(join(d, 'posts/huge.png'), '');
      await truncate(join(d, 'posts/huge.png'), 25 * 1024 * 1024 + 1);
    });
    expect(r.stderr).toContain(`${r.at}The image ./huge.png is 25.0 MiB, over the 25 MiB a file may have on Cloudflare Pages.`);
    expect(r.stderr).toContain('hint: Resize or compress it');
  });

  it('reports image problems together with the other content problems', async () => {
    const r = await breakWith(async (d) => {
      await appendImage(d, '![A diagram](./img/nope.png)');
      const file = join(d, 'projects/jumpcfg.md');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^status:/m, 'stauts:'));
    });
    expect(r.stderr).toContain('The image ./img/nope.png is missing');
    expect(r.stderr).toContain('A project needs `status`');
  });
});

describe('profile photo errors (D45)', () => {
  const profile = async (d: string, edit: (text: string) => string) => {
    const file = join(d, 'profile.md');
    await writeFile(file, edit(await readFile(file, 'utf8')));
  };
  const lineOf = async (key: string) =>
    (await readFile('content/profile.md', 'utf8')).split('\n').findIndex((l) => l.startsWith(`${key}:`)) + 1;

  it('a photo without photo_alt', async () => {
    const r = await breakWith((d) => profile(d, (t) => t.replace(/^photo_alt:.*\n/m, '')));
    expect(r.stderr).toContain(
      `${r.rel}/profile.md:${await lineOf('photo')}:1: The photo ./images/hanna-brink-illustration.png has no alt text (\`photo_alt\`).`,
    );
    expect(r.stderr).toContain('hint: Say what it shows, e.g. photo_alt: ');
  });

  it('a photo file that is missing', async () => {
    const r = await breakWith((d) => rm(join(d, 'images/hanna-brink-illustration.png')));
    expect(r.stderr).toContain(
      `${r.rel}/profile.md:${await lineOf('photo')}:1: The image ./images/hanna-brink-illustration.png is missing: `,
    );
  });

  it('photo_alt without a photo', async () => {
    const r = await breakWith((d) => profile(d, (t) => t.replace(/^photo:.*\n/m, '')));
    expect(r.stderr).toMatch(
      new RegExp(`${r.rel.replace(/[.]/g, '\\.')}/profile\\.md:\\d+:1: \`photo_alt\` is set but there is no \`photo\`\\.`),
    );
  });
});

describe('folio check reports image problems too (D1)', () => {
  it('exits 1 with the location of a missing image', async () => {
    const dir = await copyContent();
    const line = await appendImage(dir, '![A diagram](./img/nope.png)');
    const r = await folio('check', '--content', dir, '--now', '2026-11-22');
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(`${relative(process.cwd(), dir)}/${POST}:${line}:1: The image ./img/nope.png is missing`);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('images of what is not published yet (D44)', () => {
  it('a draft and a post scheduled after the build clock have their images neither checked nor published', async () => {
    const dir = await copyContent();
    const out = await tempDir('folio-unpublished-images-');
    try {
      // Each image has every problem a published post's would fail on: no alt text, no file.
      for (const post of ['posts/socket-activation-zero-downtime.md', 'posts/selling-a-small-saas-across-the-eu-vat.md'])
        await writeFile(join(dir, post), `${await readFile(join(dir, post), 'utf8')}\n![](./img/not-yet.png)\n`);
      const r = await folio('build', '--content', dir, '--out', out, '--now', '2026-11-22');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('not-yet.png');
      // Published, the scheduled post's image is checked like any other.
      const later = await folio('build', '--content', dir, '--out', out, '--now', '2027-03-02');
      expect(later.code).toBe(1);
      expect(later.stderr).toContain('selling-a-small-saas-across-the-eu-vat.md');
      expect(later.stderr).toContain('The image ./img/not-yet.png has no alt text.');
      expect(later.stderr).toContain('The image ./img/not-yet.png is missing');
      expect(later.stderr).not.toContain('socket-activation-zero-downtime.md');
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(out, { recursive: true, force: true });
    }
  });
});
