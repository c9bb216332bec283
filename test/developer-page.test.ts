// D22: the developer page of the sample site, over a real `folio serve`,
// against the operations, error codes and MCP tools it documents; its curl
// examples run with the real curl; a deprecated version's notice (D19).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../build/core/api/operations.js';
import { ERROR_STATUS } from '../build/core/errors.js';
import { request } from '../build/core/http.js';
import { tools } from '../build/core/mcp/tools.js';
import type { Site } from '../build/core/model.js';
import { respond } from '../build/core/respond.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { attr, byTag, elements, parseHtml, textOf } from './helpers/html.js';
import { servedSample } from './helpers/pages.js';

const run = promisify(execFile);
const s = servedSample();
const { get } = s;

describe('developer page (D22)', () => {
  let doc: ReturnType<typeof parseHtml>;
  let text: string;
  beforeAll(async () => {
    const res = await get('/developers');
    text = await res.text();
    doc = parseHtml(text);
  });

  it('documents every endpoint and parameter, from the operations table', () => {
    const body = textOf(doc);
    for (const op of operations) {
      expect(body, op.operationId).toContain(op.operationId);
      expect(body, op.operationId).toContain(`GET /api/v1${op.path}`);
      expect(body, op.operationId).toContain(op.description.replace(/`/g, ''));
      for (const p of op.parameters) expect(body, `${op.operationId} ${p.name}`).toContain(p.description.replace(/`/g, ''));
    }
  });

  it('documents the error envelope and every code with its status', () => {
    const rows = byTag(doc, 'tr').map((tr) => byTag(tr, 'td').map((td) => textOf(td).trim()));
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(
        rows.some((r) => r[0] === code && r[1] === String(status)),
        code,
      ).toBe(true);
    }
    for (const field of ['error.code', 'error.status', 'error.message', 'error.hint', 'error.documentation_url', 'error.openapi_url']) {
      expect(
        rows.some((r) => r[0] === field),
        field,
      ).toBe(true);
    }
  });

  it('documents the MCP endpoint and every tool, fair use and versioning', () => {
    const body = textOf(doc);
    expect(body).toContain(`${s.site.config.site_url}/mcp`);
    for (const t of tools) expect(body, t.name).toContain(t.name);
    expect(body).toMatch(/60 requests a minute/);
    const versioning = elements(doc).find((e) => attr(e, 'id') === 'versioning')!;
    expect(versioning).toBeDefined();
    const policy = textOf(versioning);
    for (const word of ['X-Api-Version', 'X-Api-Deprecated', 'Deprecation', 'Sunset', '410', '180 days']) expect(policy).toContain(word);
    expect(policy).toContain('v1 is current and not deprecated');
  });

  it('gives curl examples that run against the site', async () => {
    const commands = byTag(doc, 'code')
      .flatMap((c) => textOf(c).split('\n'))
      .filter((c) => c.startsWith('curl ') && !c.includes('-X POST'));
    expect(commands.length).toBeGreaterThanOrEqual(operations.length);
    for (const command of commands) {
      // The real curl, pointed at the test server in place of the site's host.
      const local = command.split(s.site.config.site_url).join(s.url);
      const args = [...local.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
      const { stdout } = await run('curl', [...args, '-w', '\n%{http_code}'], { timeout: 10_000 });
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
      if (command.includes('no-such-post')) {
        expect(status, command).toBe(404);
        expect(stdout).toContain('"code": "not_found"');
      } else expect(status, command).toBe(200);
    }
  });

  it('gives MCP curl examples that run against the site', async () => {
    const commands = byTag(doc, 'code')
      .map((c) => textOf(c))
      .filter((c) => c.startsWith('curl ') && c.includes('-X POST'));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    const results: {
      result?: { tools?: { name: string }[]; isError?: boolean; content?: { type: string; text: string }[] };
      error?: unknown;
    }[] = [];
    for (const command of commands) {
      const local = command
        .replace(/\\\n\s*/g, ' ')
        .split(s.site.config.site_url)
        .join(s.url);
      const args = [...local.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replace(/'\\''/g, "'")).slice(1);
      const { stdout } = await run('curl', args, { timeout: 10_000 });
      results.push(JSON.parse(stdout));
    }
    const listed = results.find((r) => r.result?.tools)!;
    expect(listed.result!.tools!.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    const called = results.find((r) => r.result?.content)!;
    expect(called.result!.isError ?? false).toBe(false);
    expect(called.result!.content![0]!.text).toContain(s.site.posts[0]!.content_markdown.trim().slice(0, 200));
  });

  it('shows a deprecated version with its dates and successor (D19)', async () => {
    const deprecated: Site = {
      ...s.site,
      versions: { v1: { version: 'v1', status: 'deprecated', deprecated: '2026-10-01', sunset: '2027-04-01', successor: 'v2' } },
    };
    const reply = await respond(request('GET', '/developers'), memoryRuntime(deprecated));
    const page = parseHtml(Buffer.from(reply.body!).toString('utf8'));
    const notice = elements(page).find((e) => attr(e, 'class') === 'notice')!;
    expect(textOf(notice)).toContain('deprecated since 2026-10-01');
    expect(textOf(notice)).toContain('2027-04-01');
    expect(textOf(notice)).toContain(`${s.site.config.site_url}/api/v2`);
    const versioning = elements(page).find((e) => attr(e, 'id') === 'versioning')!;
    expect(textOf(versioning)).toContain('v1 is deprecated since 2026-10-01');
    const twin = await respond(request('GET', '/developers.md'), memoryRuntime(deprecated));
    expect(Buffer.from(twin.body!).toString('utf8')).toContain('Deprecation notice');
  });
});
