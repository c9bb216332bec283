// D59 through the real CLI and server: a site of another consultant (another
// name, city, domain, topics, statements, and writing in Norwegian) is built,
// and no output file, nor any live answer, carries anything of the sample
// in content/: its name, domain, city, topics, titles or statements.
import { execFile } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFrontMatter } from '../build/content/frontmatter.js';
import { startServer } from '../build/serve.js';
import { tempDir } from './helpers/site.js';

const run = promisify(execFile);
const FIXTURE = 'test/fixtures/other-consultant';

/** Front-matter of every file of a content folder. */
async function frontMatter(dir: string): Promise<Record<string, unknown>[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.md'));
  return Promise.all(
    names.map(async (n) => ({
      file: n.replace(/\.md$/, ''),
      ...parseFrontMatter({ file: n, text: await readFile(join(dir, n), 'utf8') }, [])!.data,
    })),
  );
}

/** What of the sample must never come out of the tool for another site, read from content/. */
async function sampleStrings(): Promise<{ exact: string[]; words: RegExp[] }> {
  const site = parse(await readFile('content/site.yaml', 'utf8')) as Record<string, unknown>;
  const profile = parseFrontMatter({ file: 'profile.md', text: await readFile('content/profile.md', 'utf8') }, [])!.data as Record<
    string,
    string
  >;
  const posts = await frontMatter('content/posts');
  const projects = await frontMatter('content/projects');
  const services = await frontMatter('content/services');
  const host = new URL(String(site.site_url)).hostname;
  const statements = [site.writing, site.disclaimer, site.footer, ...((site.is_not as string[] | undefined) ?? [])].filter(
    (s): s is string => typeof s === 'string',
  );
  const exact = [
    profile.name!,
    ...profile.name!.split(/\s+/),
    host,
    host.split('.')[0]!,
    // The city and the other proper nouns of the location line.
    ...(profile.location!.match(/\b\p{Lu}\p{Ll}{3,}\b/gu) ?? []),
    String(site.title),
    ...[...posts, ...projects, ...services].flatMap((d) => [String(d.title), String(d.slug ?? d.id ?? d.file)]),
    ...statements,
    // The sample's statements as the tool used to word them.
    'legal, tax or accounting',
    'xperience report',
    'hosted product',
    'cloud spend',
    "one consultant's experience",
  ];
  // Topics: every tag of the sample, as a whole word. Three are also the tool's own
  // vocabulary: agents (the site speaks to AI agents), email (the contact field every
  // profile has) and security (Content-Security-Policy); the sample's pages on them
  // are still caught by their titles above.
  const vocabulary = new Set(['agents', 'email', 'security']);
  const tags = [...new Set([...posts, ...projects].flatMap((d) => (d.tags as string[] | undefined) ?? []))].filter(
    (t) => !vocabulary.has(t),
  );
  const words = [...new Set([...tags, 'vat', 'tax'])].map(
    (t) => new RegExp(`(?<![\\p{L}\\p{N}_-])${t.replace(/[-]/g, '[- ]')}(?![\\p{L}\\p{N}_-])`, 'iu'),
  );
  return { exact, words };
}

async function files(dir: string, sub = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await files(dir, rel)));
    else out.push(rel);
  }
  return out;
}

function leaks(text: string, forbidden: { exact: string[]; words: RegExp[] }): string[] {
  return [
    ...forbidden.exact.filter((s) => text.includes(s)),
    ...forbidden.words.filter((r) => r.test(text)).map((r) => `${r.exec(text)![0]} (topic)`),
  ];
}

describe('nothing of the sample in the tool (D59)', () => {
  let out: string;
  let stdout: string;
  let forbidden: Awaited<ReturnType<typeof sampleStrings>>;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    out = join(await tempDir(), 'dist');
    ({ stdout } = await run(
      process.execPath,
      ['bin/folio.js', 'build', '--content', FIXTURE, '--out', out, '--now', '2026-11-22T00:00:00Z', '--no-cache'],
      { env: { ...process.env, NO_COLOR: '1' } },
    ));
    forbidden = await sampleStrings();
    server = await startServer({ dir: out, port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    if (out) await rm(join(out, '..'), { recursive: true, force: true });
  });

  it('derives a real list of the sample from content/', () => {
    expect(forbidden.exact).toEqual(
      expect.arrayContaining(['Hanna Brink', 'hannabrink.example', 'Utrecht', 'Nothing here is legal, tax or accounting advice.']),
    );
    expect(forbidden.words.length).toBeGreaterThan(10);
    // The check can fail: the sample's own words are found in the sample's text.
    expect(
      leaks('Hanna Brink in Utrecht on monorepo CI. Nothing here is legal, tax or accounting advice.', forbidden).length,
    ).toBeGreaterThanOrEqual(5);
  });

  it('builds through the CLI and says so in number', () => {
    expect(stdout).toMatch(/^folio: built 2 posts, 1 project, 1 service → /);
  });

  it('writes no file that names the sample, its domain, city, topics or statements', async () => {
    const found: string[] = [];
    const all = await files(out);
    expect(all.length).toBeGreaterThan(30);
    for (const rel of all) {
      const bytes = await readFile(join(out, rel));
      if (bytes.includes(0)) continue; // not text (the search index and images are checked through their text elsewhere)
      for (const leak of leaks(bytes.toString('utf8'), forbidden)) found.push(`${rel}: ${leak}`);
    }
    expect(found).toEqual([]);
  });

  it('answers live requests (MCP, API, 404) without the sample', async () => {
    const mcp = async (method: string, params?: object) => {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return res.text();
    };
    const answers = [
      await mcp('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
      await mcp('tools/list'),
      await (await fetch(`${server.url}/api/v1`)).text(),
      await (await fetch(`${server.url}/api/v1/search?q=kafka`)).text(),
      await (await fetch(`${server.url}/api/v1/posts?tag=nope`)).text(),
      await (await fetch(`${server.url}/no-such-page`)).text(),
    ];
    for (const text of answers) expect(leaks(text, forbidden), text.slice(0, 200)).toEqual([]);
    // The site's own statements are the ones it makes.
    expect(answers[0]).toContain('Innholdet er ikke juridisk rådgivning.');
    expect(JSON.parse(answers[2]!).fair_use).toBe('No rate limit is enforced; please stay under about 30 requests per minute.');
  });

  it("states the site's own statements instead", async () => {
    const text = (path: string) => readFile(join(out, path), 'utf8');
    expect(await text('index.html')).toContain('<p>© 2026 Ingrid Solberg. Innholdet er ikke juridisk rådgivning.</p>');
    const llms = await text('llms.txt');
    expect(llms).toContain(
      'please keep to about 30 requests a minute. The posts are arbeidsnotater fra prosjekter. Innholdet er ikke juridisk rådgivning.',
    );
    const agents = await text('.well-known/agent-instructions.md');
    expect(agents).toContain('2 posts written as arbeidsnotater fra prosjekter');
    expect(agents).toContain('## What this site is not\n\n- Innholdet er ikke juridisk rådgivning.\n- Dette er ikke et kurs i SQL.');
    expect(await text('robots.txt')).toContain('Fair use: about 30 requests a minute.');
  });
});
