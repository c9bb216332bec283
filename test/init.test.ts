// D42 and README "Make it yours", end to end through the real CLI:
// folio init → check → build → serve → fetch, run the way the README says
// (from the directory above the new site), and the refusal that writes nothing.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, treeHash } from './helpers/site.js';

const run = promisify(execFile);
const BIN = resolve('bin/folio.js');

async function folio(cwd: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** `npx folio …` as printed, run with this checkout's bin (the README runs it in a clone). */
function argsOf(command: string): string[] {
  const [npx, name, ...args] = command.split(' ');
  expect([npx, name]).toEqual(['npx', 'folio']);
  return args;
}

let work: string;
let printed: string[];
let server: ChildProcess | null = null;

beforeAll(async () => {
  work = await tempDir('folio-init-');
  const r = await folio(work, 'init', 'my-site');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.split('\n')[0]).toBe('folio: started a site in my-site/:');
  printed = [...r.stdout.matchAll(/^\s+\d\. (.+)$/gm)].map((m) => m[1]!);
});
afterAll(async () => {
  server?.kill();
  await rm(work, { recursive: true, force: true });
});

describe('folio init (D42)', () => {
  it('writes the starter files and a .gitignore for dist/ and the cache', async () => {
    for (const file of [
      'site.yaml',
      'profile.md',
      'services/your-first-service.md',
      'posts/first-post.md',
      'projects/first-project.md',
      'static/photo.svg',
    ]) {
      expect((await readFile(join(work, 'my-site/content', file), 'utf8')).length, file).toBeGreaterThan(50);
    }
    const ignore = (await readFile(join(work, 'my-site/.gitignore'), 'utf8')).split('\n');
    expect(ignore).toContain('dist/');
    expect(ignore).toContain('.folio-cache/');
  });

  it('says what to replace in every placeholder', async () => {
    const profile = await readFile(join(work, 'my-site/content/profile.md'), 'utf8');
    for (const field of ['headline', 'location', 'note', 'photo_alt'])
      expect(profile, field).toMatch(new RegExp(`^\\s*${field}: ".*[Rr]eplace`, 'm'));
    expect(profile).toMatch(/^photo: \/photo\.svg$/m);
    const site = await readFile(join(work, 'my-site/content/site.yaml'), 'utf8');
    for (const field of ['title', 'description', 'site_url']) expect(site, field).toMatch(new RegExp(`# Replace[^\\n]*\\n${field}: `));
    for (const file of ['services/your-first-service.md', 'posts/first-post.md', 'projects/first-project.md']) {
      const text = await readFile(join(work, 'my-site/content', file), 'utf8');
      expect(text, file).toMatch(/^title: "Replace/m);
      expect(text.split('---\n')[2]!.trim(), file).toMatch(/^Replace this paragraph/);
    }
    expect(await readFile(join(work, 'my-site/content/static/photo.svg'), 'utf8')).toContain('Replace with your photo');
  });

  it('quotes a folder name a shell would split, so the printed commands run as printed', async () => {
    const r = await folio(work, 'init', "Hanna's site");
    expect(r.code, r.stderr).toBe(0);
    const commands = [...r.stdout.matchAll(/^\s+\d\. (.+)$/gm)].map((m) => m[1]!);
    expect(commands[0]).toBe("npx folio check --content 'Hanna'\\''s site'/content");
    // Run by a real shell, with this checkout's bin for npx folio.
    const { stdout } = await run('/bin/sh', ['-c', commands[0]!.replace('npx folio', `"${process.execPath}" "${BIN}"`)], { cwd: work });
    expect(stdout).toMatch(/content is valid/);
  });

  it('prints the next three commands, which check, build and serve the new site', async () => {
    expect(printed).toEqual([
      'npx folio check --content my-site/content',
      'npx folio build --content my-site/content --out my-site/dist',
      'npx folio serve --dir my-site/dist',
    ]);
    const check = await folio(work, ...argsOf(printed[0]!));
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/content is valid/);
    const build = await folio(work, ...argsOf(printed[1]!));
    expect(build.code, build.stderr).toBe(0);
    // The one placeholder a look at the pages does not show: the address every absolute link is made with.
    expect(build.stderr).toBe(
      'folio: warning: my-site/content/site.yaml:7:1: `site_url` https://example.com is a placeholder, and the canonical links, the sitemap, the feeds, llms.txt and every API and MCP address would point there.\n' +
        '  hint: Set it to the address the site will live at, with no trailing slash, e.g. site_url: https://ada.consulting\n',
    );
    // The starter's availability note has no full stop: the facts after it still start a sentence of their own.
    const about = await readFile(join(work, 'my-site/dist/about.md'), 'utf8');
    expect(about).toMatch(
      /^- Availability: Available for new work\. Replace with .*, e\.g\. From March, two days a week\. Earliest start: /m,
    );

    // The third command, on a free port; it prints where it listens.
    server = spawn(process.execPath, [BIN, ...argsOf(printed[2]!), '--port', '0'], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((ok, fail) => {
      let out = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) ok(m[1]!);
      });
      server!.once('exit', (code) => fail(new Error(`folio serve exited with ${code}`)));
    });
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Your Name');
    for (const path of [
      '/about',
      '/services/your-first-service',
      '/blog/first-post',
      '/projects/first-project',
      '/blog/first-post.md',
      '/api/v1/services/your-first-service',
      '/llms.txt',
    ]) {
      const res = await fetch(url + path);
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
    }
    const photo = await fetch(`${url}/photo.svg`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/svg+xml');
    expect(await photo.text()).toBe(await readFile(join(work, 'my-site/content/static/photo.svg'), 'utf8'));
  });

  it('is what the README\'s "Make it yours" tells a reader to run', async () => {
    const readme = await readFile('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Make it yours'), readme.indexOf('\n## ', readme.indexOf('## Make it yours') + 1));
    const commands = /```sh\n([\s\S]*?)```/
      .exec(section)![1]!
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean);
    expect(commands[0]).toBe('npx folio init my-site');
    expect(commands.slice(1, 4)).toEqual(printed);
    expect(commands.at(-1)).toMatch(/^npx wrangler pages deploy my-site\/dist /);
  });

  it('refuses with exit 2 and writes nothing when content/ exists and is not empty', async () => {
    const dir = join(work, 'taken');
    await mkdir(join(dir, 'content'), { recursive: true });
    await writeFile(join(dir, 'content/site.yaml'), 'title: mine\n');
    const before = await treeHash(dir);
    const r = await folio(work, 'init', 'taken');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('taken/content already exists and is not empty');
    expect(r.stderr).toMatch(/hint: /);
    expect(await treeHash(dir)).toEqual(before);
  });

  it('refuses with exit 2 and writes nothing when content is a file', async () => {
    const dir = join(work, 'file');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'content'), 'notes\n');
    const before = await treeHash(dir);
    const r = await folio(work, 'init', 'file');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('file/content already exists and is a file, not a folder');
    expect(await treeHash(dir)).toEqual(before);
    // The folder named is itself a file: that file is what is in the way.
    await writeFile(join(work, 'notes.txt'), 'notes\n');
    const onFile = await folio(work, 'init', 'notes.txt');
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toContain('folio: notes.txt already exists and is a file, not a folder;');
    expect(await readFile(join(work, 'notes.txt'), 'utf8')).toBe('notes\n');
  });

  it('starts in the current directory by default, beside an existing .gitignore, and prints plain commands', async () => {
    const dir = join(work, 'here');
    await mkdir(join(dir, 'content'), { recursive: true });
    // `/dist` ignores the folder as `dist/` does: not added again.
    await writeFile(join(dir, '.gitignore'), 'node_modules/\n/dist');
    const r = await folio(dir, 'init');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('folio: started a site in this directory:');
    expect([...r.stdout.matchAll(/^\s+\d\. (.+)$/gm)].map((m) => m[1])).toEqual(['npx folio check', 'npx folio build', 'npx folio serve']);
    // Only the missing lines are added to what was there.
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules/\n/dist\n# folio build output and its cache\n.folio-cache/\n.dist.folio-*\n',
    );
    const check = await folio(dir, 'check');
    expect(check.code, check.stderr).toBe(0);
  });
});
