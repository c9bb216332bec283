// D2 and D40 through the real CLI: invalid content fails the build with
// `path:line:column: message` and a hint for every problem, exit code 1, and
// the previous dist/ left byte-identical.
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/site.js';
import { folio, folioIn } from './helpers/cli.js';
import { brokenSample, type BrokenSample } from './helpers/broken.js';

let sample: BrokenSample;
beforeAll(async () => {
  sample = await brokenSample();
});
afterAll(() => sample.close());

/** A broken copy of the sample, built over the good dist. */
const breakWith = (edit: (dir: string) => Promise<void>) => sample.breakWith(edit);

async function replaceIn(file: string, from: string | RegExp, to: string) {
  const text = await readFile(file, 'utf8');
  const next = text.replace(from, to);
  expect(next, `${file} did not contain ${from}`).not.toBe(text);
  await writeFile(file, next);
}

describe('content errors (D2, D40)', () => {
  it('reports a missing title at the opening --- of the front-matter', async () => {
    const r = await breakWith((d) => replaceIn(join(d, 'posts/bounce-handling.md'), /^title:.*\n/m, ''));
    expect(r.stderr).toContain(`${r.rel}/posts/bounce-handling.md:1:1: A post needs \`title\`, and it is missing.`);
    expect(r.stderr).toMatch(/hint: .*title: /);
  });

  it('suggests the field a typo was meant to be', async () => {
    const r = await breakWith((d) => replaceIn(join(d, 'projects/jumpcfg.md'), /^status:/m, 'stauts:'));
    expect(r.stderr).toContain(`${r.rel}/projects/jumpcfg.md:1:1: A project needs \`status\``);
    expect(r.stderr).toContain('Did you mean "status"? The front-matter has "stauts".');
  });

  it('tells an empty site.yaml to add each field to site.yaml, which has no front-matter', async () => {
    const r = await breakWith((d) => writeFile(join(d, 'site.yaml'), ''));
    expect(r.stderr).toContain(
      `${r.rel}/site.yaml:1:1: A site.yaml needs \`title\`, and it is missing.\n  hint: Add it to site.yaml, e.g. title: `,
    );
    expect(r.stderr).not.toContain('front-matter');
  });

  it('reports unparsable YAML with its line and column', async () => {
    const r = await breakWith((d) => replaceIn(join(d, 'posts/bounce-handling.md'), /^tags:.*$/m, 'tags: [email, deliverability'));
    const line = (await readFile('content/posts/bounce-handling.md', 'utf8')).split('\n').findIndex((l) => l.startsWith('tags:')) + 1;
    const at = new RegExp(`${r.rel}/posts/bounce-handling\\.md:(\\d+):\\d+: The front-matter is not valid YAML: `).exec(r.stderr);
    expect(at, r.stderr).not.toBeNull();
    // The parser notices the unclosed list between the tags line and the closing ---.
    expect(Number(at![1])).toBeGreaterThanOrEqual(line);
    expect(Number(at![1])).toBeLessThanOrEqual(line + 4);
  });

  it('reports an unparsable date at the date field', async () => {
    const r = await breakWith((d) => replaceIn(join(d, 'posts/bounce-handling.md'), /^date:.*$/m, 'date: 2024-13-45'));
    const line = (await readFile('content/posts/bounce-handling.md', 'utf8')).split('\n').findIndex((l) => l.startsWith('date:')) + 1;
    expect(r.stderr).toContain(`${r.rel}/posts/bounce-handling.md:${line}:1: \`date\` is not a date: "2024-13-45".`);
    expect(r.stderr).toContain('YYYY-MM-DD');
  });

  it('reports a duplicate slug naming both files', async () => {
    const r = await breakWith((d) => replaceIn(join(d, 'posts/retiring-pid-files.md'), /^title:/m, 'slug: bounce-handling\ntitle:'));
    expect(r.stderr).toMatch(
      /posts\/(retiring-pid-files|bounce-handling)\.md:1:1: The post slug "bounce-handling" is already used by .*posts\/(bounce-handling|retiring-pid-files)\.md/,
    );
  });

  it('reports a status outside the three values with the closest one', async () => {
    const r = await breakWith((d) => replaceIn(join(d, 'projects/jumpcfg.md'), /^status:.*$/m, 'status: delivred'));
    expect(r.stderr).toMatch(/projects\/jumpcfg\.md:\d+:1: `status` is "delivred", which is not one of live, sunset, delivered\./);
    expect(r.stderr).toContain('Did you mean "delivered"?');
  });

  it('reports an internal link to a page that does not exist, at the link', async () => {
    const r = await breakWith((d) => appendFile(join(d, 'posts/bounce-handling.md'), '\nSee [the follow-up](/blog/no-such-post) too.\n'));
    const lines = (await readFile('content/posts/bounce-handling.md', 'utf8')).split('\n').length;
    expect(r.stderr).toContain(
      `${r.rel}/posts/bounce-handling.md:${lines + 1}:5: The link to /blog/no-such-post points at a page that does not exist.`,
    );
  });

  it('treats a link to a draft as broken', async () => {
    const r = await breakWith((d) => appendFile(join(d, 'posts/bounce-handling.md'), '\n[draft](/blog/socket-activation-zero-downtime)\n'));
    expect(r.stderr).toContain('The link to /blog/socket-activation-zero-downtime points at a page that does not exist.');
  });

  it('reports every problem at once, across files', async () => {
    const r = await breakWith(async (d) => {
      await replaceIn(join(d, 'posts/bounce-handling.md'), /^title:.*\n/m, '');
      await replaceIn(join(d, 'projects/jumpcfg.md'), /^status:.*$/m, 'status: archived');
      await replaceIn(join(d, 'services/email-deliverability.md'), /^best_fit:/m, 'best_fits:');
    });
    expect(r.stderr).toContain('3 content problems');
    expect(r.stderr).toContain('posts/bounce-handling.md:1:1');
    expect(r.stderr).toContain('projects/jumpcfg.md');
    expect(r.stderr).toContain('services/email-deliverability.md:1:1: A service needs `best_fit`');
  });

  it('explains an unquoted colon in a list item', async () => {
    const r = await breakWith((d) =>
      replaceIn(join(d, 'profile.md'), /^ {2}- "Remote access to cloud compute: (.*)"$/m, '  - Remote access to cloud compute: $1'),
    );
    expect(r.stderr).toMatch(/profile\.md:\d+:\d+: `expertise` item 3 is a map/);
    expect(r.stderr).toContain('Quote the item');
  });

  it('reports a sunset less than 180 days after deprecation (D19)', async () => {
    const r = await breakWith((d) =>
      appendFile(join(d, 'site.yaml'), 'api:\n  versions:\n    v1: { deprecated: 2027-01-01, sunset: 2027-03-01, successor: v2 }\n'),
    );
    expect(r.stderr).toContain('is less than 180 days after deprecated (2027-01-01)');
    expect(r.stderr).toContain('2027-06-30');
  });
});

describe('CLI usage (D1)', () => {
  it('prints help and version with exit 0', async () => {
    for (const args of [['--help'], ['--version'], ['build', '--help'], ['serve', '--help']]) {
      const r = await folio(...args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(0);
    }
    expect((await folio('--version')).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 on usage errors', async () => {
    for (const args of [['bild'], ['build', '--bogus'], ['build', '--now', 'yesterday'], ['serve', '--port', 'http']]) {
      const r = await folio(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.length).toBeGreaterThan(0);
    }
  });

  it('names $PORT when it is the port that is wrong, for serve and dev', async () => {
    for (const command of ['serve', 'dev']) {
      const r = await folioIn([command], process.cwd(), { PORT: 'eighty' });
      expect(r.code, command).toBe(2);
      expect(r.stderr).toBe('folio: $PORT is "eighty", which is not a port number (0–65535). Unset it, or pass --port.\n');
    }
  });

  it('exits 1 when the content directory does not exist, saying so rather than listing its files as missing', async () => {
    const r = await breakWith((d) => rm(d, { recursive: true }));
    // Named as --content gave it (here an absolute path), on one line, with no file listed as missing.
    expect(r.stderr).toMatch(
      /^folio: the content folder \/\S+\/content does not exist\. Pass --content with the folder that holds site\.yaml and profile\.md, or start one with npx folio init\.\n$/,
    );
  });

  it('serve names the fix for a folder that is not a build, and for the content folder given as one', async () => {
    const empty = await tempDir();
    try {
      const r = await folio('serve', '--dir', empty, '--port', '0');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${empty} is not a folio build. Run \`npx folio build --out ${empty}\` first.`);
      const c = await folio('serve', '--dir', 'content', '--port', '0');
      expect(c.code).toBe(1);
      expect(c.stderr).toContain(
        'content is not a folio build. It holds site.yaml: it is content, not a build. Run `npx folio build --content content --out dist`, then `npx folio serve --dir dist`.',
      );
      expect(c.stderr).not.toContain('--out content');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('names the fix when the port is taken, for serve and dev', async () => {
    const dir = join(await tempDir(), 'dist');
    expect((await folio('build', '--out', dir, '--now', '2026-11-22')).code).toBe(0);
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    const port = (taken.address() as AddressInfo).port;
    try {
      for (const args of [
        ['serve', '--dir', dir],
        ['dev', '--out', join(dir, '..', 'dev-dist'), '--now', '2026-11-22'],
      ]) {
        const r = await folio(...args, '--port', String(port));
        expect(r.code, args[0]).toBe(1);
        expect(r.stderr, args[0]).toContain(
          `folio: port ${port} on 127.0.0.1 is taken by another process. Pass --port with a free port, or --port 0 for any free one.`,
        );
      }
    } finally {
      taken.close();
      await rm(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('prints a summary with files, bytes and time', async () => {
    const dir = join(await tempDir(), 'dist');
    const r = await folio('build', '--out', dir, '--now', '2026-11-22');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/built 17 posts, 11 projects, 5 services .* \(\d+ files, [\d.]+ (KiB|MiB), \d+ ms\)/);
    await rm(join(dir, '..'), { recursive: true, force: true });
  });
});
