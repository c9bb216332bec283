// Real responses of `folio serve` on 127.0.0.1, every status an operation
// documents (200, 301, 400, 404, 405, 500), validated by Ajv 2020 against the
// schema the served OpenAPI document (D25) gives that operation and status.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../build/core/api/operations.js';
import { SEARCH_HEAD_PATH } from '../build/core/edge.js';
import { MANIFEST_PATH, type Manifest } from '../build/core/files.js';
import { startServer } from '../build/serve.js';
import { expectValid, servedDocument } from './helpers/openapi.js';

const s = servedDocument();

describe('every response of the API validates against its operation schema (Ajv 2020)', () => {
  const cases: [target: string, operationId: string, status: number][] = [
    ['/api/v1', 'getApiIndex', 200],
    ['/api/v1/', 'getApiIndex', 200],
    ['/api/v1/profile', 'getProfile', 200],
    ['/api/v1/services', 'listServices', 200],
    ['/api/v1/posts', 'listPosts', 200],
    ['/api/v1/posts?tag=email', 'listPosts', 200],
    ['/api/v1/posts?tag=no-such-tag', 'listPosts', 200],
    ['/api/v1/posts?limit=3&offset=4', 'listPosts', 200],
    ['/api/v1/posts?offset=1000', 'listPosts', 200],
    ['/api/v1/posts?limit=0', 'listPosts', 400],
    ['/api/v1/posts?limit=101', 'listPosts', 400],
    ['/api/v1/posts?limit=abc', 'listPosts', 400],
    ['/api/v1/posts?offset=-1', 'listPosts', 400],
    ['/api/v1/posts?limit=2&limit=3', 'listPosts', 400],
    ['/api/v1/posts/email-deliverability-b2b-saas', 'getPost', 200],
    ['/api/v1/posts/no-such-post', 'getPost', 404],
    ['/api/v1/projects', 'listProjects', 200],
    ['/api/v1/projects?status=live', 'listProjects', 200],
    ['/api/v1/projects?status=sunset', 'listProjects', 200],
    ['/api/v1/projects?status=bogus', 'listProjects', 400],
    ['/api/v1/projects/bouncedesk', 'getProject', 200],
    ['/api/v1/projects/no-such-project', 'getProject', 404],
    ['/api/v1/availability', 'getAvailability', 200],
    ['/api/v1/availability?service=email-deliverability&month=2027-01', 'getAvailability', 200],
    ['/api/v1/availability?service=nope', 'getAvailability', 400],
    ['/api/v1/availability?month=2040-01', 'getAvailability', 400],
    ['/api/v1/changes', 'listChanges', 200],
    ['/api/v1/changes?since=2025-01-01&limit=3&offset=2', 'listChanges', 200],
    ['/api/v1/changes?since=2025-13-01', 'listChanges', 400],
    ['/api/v1/search', 'searchContent', 400],
    ['/api/v1/search?q=', 'searchContent', 400],
    ['/api/v1/search?q=%20%20', 'searchContent', 400],
    [`/api/v1/search?q=${'x'.repeat(201)}`, 'searchContent', 400],
    ['/api/v1/search?q=deliverability&limit=51', 'searchContent', 400],
  ];

  it.each(cases)('GET %s (%s) → %i', async (target, operationId, status) => {
    const res = await fetch(s.at(target));
    expect(res.status).toBe(status);
    expectValid(s.deref, operationId, status, await res.json());
    expect(res.headers.get('x-api-version')).toMatch(/^v[0-9]+$/);
    expect(res.headers.get('x-api-deprecated')).toBe('false');
    if (status === 200) expect(res.headers.get('etag')).toBeTruthy();
  });

  it.each([['deliverability'], ['deliverabilty'], ['ssh certificates'], ['zzzz-nothing-matches']])(
    'GET /api/v1/search?q=%s (searchContent) → 200',
    async (q) => {
      const res = await fetch(s.at(`/api/v1/search?q=${encodeURIComponent(q)}&limit=5`));
      expect(res.status).toBe(200);
      const body = await res.json();
      expectValid(s.deref, 'searchContent', 200, body);
      if (!q.startsWith('zzzz')) expect(body.data.length).toBeGreaterThan(0);
    },
  );

  it("answers each former id of an item with its operation's documented 301 and every header it declares (D48)", async () => {
    const manifest = JSON.parse(await readFile(join(s.out, MANIFEST_PATH), 'utf8')) as Manifest;
    const moved = Object.entries(manifest.redirects ?? {}).filter(([from]) => from.startsWith('/api/v1/'));
    expect(moved.length).toBeGreaterThan(0);
    for (const [from, to] of moved) {
      const res = await fetch(s.at(from), { redirect: 'manual' });
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
      // The operation whose path template the former address matches, as a client's router would.
      const key = Object.keys(s.doc.paths).find((p) =>
        new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(from.slice('/api/v1'.length)),
      )!;
      const documented = s.deref.paths[key].get.responses['301'];
      expect(documented, `${s.deref.paths[key].get.operationId} documents no 301`).toBeDefined();
      for (const name of ['Location', 'X-Api-Version', 'X-Api-Deprecated', 'Link']) expect(Object.keys(documented.headers)).toContain(name);
      for (const name of ['location', 'x-api-version', 'x-api-deprecated', 'link'])
        expect(res.headers.get(name), `${from} ${name}`).toBeTruthy();
      await res.arrayBuffer();
    }
  });

  it('search answers its documented 500 when the deployed index is missing', async () => {
    // A fresh server over the same files, as a cold function would start, minus the index (its head, which the functions read).
    await rm(join(s.out, SEARCH_HEAD_PATH));
    const cold = await startServer({ dir: s.out, port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${cold.url}/api/v1/search?q=deliverability`);
      expect(res.status).toBe(500);
      expectValid(s.deref, 'searchContent', 500, await res.json());
    } finally {
      await cold.close();
    }
  });

  it.each(
    operations.map((op) => [op.operationId, op.path.replace('{slug}', 'email-deliverability-b2b-saas').replace('{id}', 'bouncedesk')]),
  )('POST to %s → documented 405', async (operationId, path) => {
    const res = await fetch(s.at(`/api/v1${path}`), { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(405);
    expectValid(s.deref, operationId, 405, await res.json());
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
