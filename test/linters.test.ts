// D54: the ecosystem's own linters over the built sample, run as their users
// run them: Redocly CLI (`recommended`) and Spectral (`spectral:oas`) on
// /openapi.json, html-validate (`html-validate:standard`) on every HTML page,
// and the MCP Inspector CLI's --strict schema check on tools/list. Each one is
// also shown a broken input, so a linter that silently checks nothing fails.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HtmlValidate } from 'html-validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { openApiDocument } from '../build/core/documents/openapi.js';
import { buildInto, copyContent, serveBuilt, tempDir } from './helpers/site.js';

const run = promisify(execFile);
const bin = (name: string) => join('node_modules', '.bin', name);
const CONFIG = 'test/linters';
const SLOW = { timeout: 180_000 };

let s: Awaited<ReturnType<typeof serveBuilt>>;
let dir: string;
let doc: any;

beforeAll(async () => {
  s = await serveBuilt();
  dir = await tempDir('folio-lint-');
  doc = await (await fetch(s.at('/openapi.json'))).json();
});
afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs a CLI and returns its output whatever its exit code: the findings decide, not the code. */
async function cli(
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(file, args, {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number };
    if (typeof e.code !== 'number') throw error;
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: e.code };
  }
}

async function writeDocument(name: string, document: unknown): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(document, null, 2));
  return file;
}

interface Finding {
  rule: string;
  severity: string;
  where: string;
}

/** Redocly's problems (errors and warnings alike) as rule + JSON pointer. */
async function redocly(file: string, skip: readonly string[] = []): Promise<Finding[]> {
  const args = ['lint', file, '--config', join(CONFIG, 'redocly.yaml'), '--format', 'json', ...skip.flatMap((r) => ['--skip-rule', r])];
  const { stdout, stderr } = await cli(bin('redocly'), args);
  const start = stdout.indexOf('{');
  expect(start, `redocly printed no JSON report: ${stderr}`).toBeGreaterThanOrEqual(0);
  const report = JSON.parse(stdout.slice(start));
  return report.problems.map((p: any) => ({ rule: p.ruleId, severity: p.severity, where: p.location?.[0]?.pointer ?? '' }));
}

/** Spectral's results at every severity, written to a file so nothing else on stdout can mix in. */
async function spectral(file: string): Promise<Finding[]> {
  const out = `${file}.spectral.json`;
  const { stderr } = await cli(bin('spectral'), [
    'lint',
    file,
    '-r',
    join(CONFIG, 'spectral.yaml'),
    '-f',
    'json',
    '-o',
    out,
    '--fail-severity',
    'hint',
  ]);
  const results = JSON.parse(await readFile(out, 'utf8').catch(() => `null`));
  expect(results, `spectral wrote no report: ${stderr}`).not.toBeNull();
  const severity = ['error', 'warning', 'info', 'hint'];
  return results.map((r: any) => ({ rule: r.code, severity: severity[r.severity] ?? String(r.severity), where: r.path.join('.') }));
}

/** The license rule applies when the site states a license; a site that states none has nothing true to declare (D51). */
async function statesLicense(): Promise<boolean> {
  const config = parseYaml(await readFile('content/site.yaml', 'utf8')) as Record<string, unknown>;
  return config.license != null;
}

describe('/openapi.json against Redocly CLI recommended (D54)', () => {
  it('has no error and no warning', SLOW, async () => {
    const file = await writeDocument('openapi.json', doc);
    // Without a stated license, info-license is the one rule that cannot be met honestly: see the next test.
    const skip = (await statesLicense()) ? [] : ['info-license'];
    expect(await redocly(file, skip)).toEqual([]);
    // The YAML twin is the same document, read by Redocly's own YAML parser.
    const yaml = join(dir, 'openapi.yaml');
    await writeFile(yaml, await (await fetch(s.at('/openapi.yaml'))).text());
    expect(await redocly(yaml, skip)).toEqual([]);
  });

  it('declares the license the site states, and invents none when it states none', SLOW, async () => {
    const licensed = openApiDocument({
      ...s.site,
      config: { ...s.site.config, license: { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' } },
    });
    expect(licensed.info.license).toEqual({ name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' });
    expect(await redocly(await writeDocument('licensed.json', licensed))).toEqual([]);

    const unlicensed = openApiDocument({ ...s.site, config: { ...s.site.config, license: null } });
    expect('license' in unlicensed.info).toBe(false);
    const findings = await redocly(await writeDocument('unlicensed.json', unlicensed));
    expect(findings).toEqual([{ rule: 'info-license', severity: 'warn', where: '#/info' }]);
  });

  it('reports an operation that drops security: [] (the rule can fail)', SLOW, async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/posts'].get.security;
    const findings = await redocly(await writeDocument('broken-security.json', broken), ['info-license']);
    expect(findings).toEqual([{ rule: 'security-defined', severity: 'error', where: '#/paths/~1posts/get' }]);
  });

  it('every operation is public and tagged, and every tag is declared with a description', () => {
    const operations = Object.values(doc.paths).map((item: any) => item.get);
    const declared = new Map(doc.tags.map((t: any) => [t.name, t.description]));
    for (const op of operations) {
      expect(op.security, op.operationId).toEqual([]);
      expect(op.tags, op.operationId).toHaveLength(1);
      expect(declared.get(op.tags[0]), op.operationId).toMatch(/\S/);
    }
    expect(new Set(operations.map((op: any) => op.tags[0])).size).toBe(declared.size);
  });
});

describe('/openapi.json against Spectral spectral:oas (D54)', () => {
  it('has no result at any severity', SLOW, async () => {
    expect(await spectral(await writeDocument('openapi-spectral.json', doc))).toEqual([]);
  });

  it('reports an operation without tags (the rule can fail)', SLOW, async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/search'].get.tags;
    const findings = await spectral(await writeDocument('broken-tags.json', broken));
    expect(findings).toEqual([{ rule: 'operation-tags', severity: 'warning', where: 'paths./search.get' }]);
  });
});

describe('every HTML page against html-validate:standard (D54)', () => {
  const validator = async () => new HtmlValidate(JSON.parse(await readFile(join(CONFIG, 'htmlvalidate.json'), 'utf8')));

  async function htmlFiles(root: string, sub = ''): Promise<string[]> {
    const files: string[] = [];
    for (const entry of await readdir(join(root, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) files.push(...(await htmlFiles(root, rel)));
      else if (entry.name.endsWith('.html')) files.push(rel);
    }
    return files;
  }

  it('finds no error and no warning on any page of the built sample', SLOW, async () => {
    const html = await validator();
    const files = await htmlFiles(s.out);
    // Every page kind is there: home, lists, posts, projects, services, developers, 404.
    expect(files).toEqual(expect.arrayContaining(['index.html', '404.html', 'about.html', 'blog.html', 'developers.html']));
    expect(files.length).toBeGreaterThan(s.site.posts.length + s.site.projects.length);
    const problems: string[] = [];
    for (const file of files) {
      const report = await html.validateString(await readFile(join(s.out, file), 'utf8'), file);
      for (const result of report.results)
        for (const m of result.messages) problems.push(`${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
    }
    expect(problems).toEqual([]);
  });

  it(
    'finds nothing on pages built from hostile content: quotes, markup, emoji, right-to-left text, every Markdown construct',
    SLOW,
    async () => {
      const content = await copyContent();
      try {
        const title = `"Quotes" & <b>tags</b> </script> <!-- --> 🚀 שלום עולם`;
        await writeFile(
          join(content, 'posts', 'hostile-markup.md'),
          [
            '---',
            `title: ${JSON.stringify(title)}`,
            'date: 2024-01-02',
            'tags: ["émoji-🚀", "rtl-שלום", "a&b"]',
            `summary: ${JSON.stringify(`A summary with ${title} in it.`)}`,
            '---',
            '',
            '<div onclick="x()">raw <script>alert(1)</script> HTML</div> <span style="color:red">inline</span>',
            '',
            '# A second h1 in the body',
            '',
            '| a | b |',
            '| :- | -: |',
            '| `|` | **bold** |',
            '',
            'A footnote[^1] and [a link](/projects "with a title") and ![an image](https://example.com/x.png) and <https://example.com>.',
            '',
            '[^1]: The note, with a [link](https://example.com).',
            '',
            '- [ ] a task',
            '- [x] done',
            '',
            '1. one',
            '2. two',
            '',
            '```js',
            'const s = "</script>";',
            '```',
            '',
            '> a quote',
            '',
            '---',
            '',
            '~~struck~~ <details><summary>s</summary>d</details>',
            '',
          ].join('\n'),
        );
        const built = await buildInto(content);
        try {
          const html = await validator();
          const problems: string[] = [];
          for (const file of await htmlFiles(built.out)) {
            const report = await html.validateString(await readFile(join(built.out, file), 'utf8'), file);
            for (const result of report.results)
              for (const m of result.messages) problems.push(`${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
          }
          const page = await readFile(join(built.out, 'blog', 'hostile-markup.html'), 'utf8');
          expect(page).toContain('שלום');
          // The right-aligned column keeps its alignment, as a class instead of the obsolete align attribute.
          expect(page.match(/<t[hd] class="align-right">/g)).toHaveLength(2);
          expect(problems).toEqual([]);
        } finally {
          await rm(join(built.out, '..'), { recursive: true, force: true });
        }
      } finally {
        await rm(content, { recursive: true, force: true });
      }
    },
  );

  it('reports a page with misnested and duplicated markup (the preset can fail)', async () => {
    const html = await validator();
    const page = await readFile(join(s.out, 'index.html'), 'utf8');
    const broken = page.replace('<main', '<p><div id="x"></p><span id="x"></span><main');
    const report = await html.validateString(broken, 'index.html');
    const rules = report.results.flatMap((r) => r.messages.map((m) => m.ruleId));
    expect(rules).toEqual(expect.arrayContaining(['close-order', 'no-dup-id']));
  });
});

describe('MCP Inspector CLI --strict on tools/list (D37, D54)', () => {
  async function inspect(url: string) {
    // HOME in the temp dir: the inspector keeps a storage folder there.
    const { stdout, stderr, code } = await cli(
      bin('inspector'),
      ['--cli', url, '--transport', 'http', '--method', 'tools/list', '--strict'],
      { HOME: dir },
    );
    // Node may print its own engine notices; the inspector's findings are the Warning:/Error: blocks.
    const findings = stderr.split('\n').filter((line) => /^(Warning|Error): /.test(line));
    return { tools: code === 0 ? (JSON.parse(stdout).tools as any[]) : [], findings, stderr, code };
  }

  it('lists every tool with no portability warning', SLOW, async () => {
    const { tools, findings, stderr, code } = await inspect(`${s.url}/mcp`);
    expect(code, stderr).toBe(0);
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter((t) => t.outputSchema).length).toBeGreaterThan(0);
    expect(findings, stderr).toEqual([]);
  });

  it('warns on an output schema typed ["string","null"] (the check can fail)', SLOW, async () => {
    const server = await typeArrayServer();
    try {
      const { port } = server.address() as AddressInfo;
      const { findings, stderr } = await inspect(`http://127.0.0.1:${port}/mcp`);
      expect(findings, stderr).toEqual(['Warning: tool "lookup"']);
      expect(stderr).toContain('outputSchema.properties.updated');
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

/** A minimal streamable-HTTP MCP server (plain JSON answers) whose one tool has a type-array output schema. */
async function typeArrayServer(): Promise<Server> {
  const tool = {
    name: 'lookup',
    description: 'Looks something up.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: { type: 'object', properties: { updated: { type: ['string', 'null'] } }, required: ['updated'] },
  };
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    let body = '';
    for await (const chunk of req) body += chunk;
    const message = JSON.parse(body);
    if (message.id === undefined) return void res.writeHead(202).end();
    const result =
      message.method === 'initialize'
        ? {
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'fixture', version: '1.0.0' },
          }
        : message.method === 'tools/list'
          ? { tools: [tool] }
          : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

describe("the page policy lets an in-page audit read robots.txt (D54, Lighthouse's SEO audit)", () => {
  it("allows connect-src 'self' in the header and the meta policy of the home page and a post, and nothing wider", async () => {
    const post = s.site.posts[0]!;
    for (const path of ['/', `/blog/${post.slug}`]) {
      const res = await fetch(s.at(path));
      expect(res.status, path).toBe(200);
      const header = res.headers.get('content-security-policy')!;
      const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(await res.text())![1]!.replaceAll('&#39;', "'");
      for (const policy of [header, meta]) {
        const connect = policy
          .split(';')
          .map((d) => d.trim())
          .filter((d) => d.startsWith('connect-src'));
        expect(connect, path).toEqual(["connect-src 'self'"]);
        expect(policy, path).not.toMatch(/script-src/);
      }
    }
    expect((await fetch(s.at('/robots.txt'))).status).toBe(200);
  });
});
