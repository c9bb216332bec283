// The OpenAPI 3.1 description (D25) checked by independent tools: the
// document by @readme/openapi-parser, real responses of a running
// `folio serve` by Ajv 2020 against the schema the served document gives
// each operation and status. Deprecation (D19) repeats in the document.
import { dereference, validate, compileErrors } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_PATH, type Manifest } from '../build/core/files.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { operations } from '../build/core/api/operations.js';
import { SEARCH_HEAD_PATH } from '../build/core/edge.js';
import { startServer } from '../build/serve.js';
import { schemas } from '../build/core/schemas.js';
import { addFormats } from './helpers/ajv.js';
import { copyContent, serveBuilt, tempDir } from './helpers/site.js';

const SITE = 'https://hannabrink.example';
const BASE = `${SITE}/api/v1`;

type Served = Awaited<ReturnType<typeof serveBuilt>>;
let s: Served;
let doc: any;
let deref: any;

beforeAll(async () => {
  s = await serveBuilt();
  doc = await (await fetch(s.at('/openapi.json'))).json();
  deref = await dereference(structuredClone(doc));
});
afterAll(() => s?.close());

const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
addFormats(ajv);

/** The schema a dereferenced document gives an operation's response with this status. */
function responseSchema(document: any, operationId: string, status: number) {
  for (const item of Object.values(document.paths) as any[]) {
    if (item.get?.operationId !== operationId) continue;
    const response = item.get.responses[String(status)];
    expect(response, `${operationId} documents no ${status} response`).toBeDefined();
    return response.content['application/json'].schema;
  }
  throw new Error(`No operation ${operationId} in the OpenAPI document.`);
}

const validators = new WeakMap<object, ReturnType<typeof ajv.compile>>();
function expectValid(document: any, operationId: string, status: number, body: unknown) {
  const schema = responseSchema(document, operationId, status);
  let check = validators.get(schema);
  if (!check) validators.set(schema, (check = ajv.compile(schema)));
  const ok = check(body);
  expect(check.errors ?? [], `${operationId} ${status}: ${JSON.stringify(check.errors)}`).toEqual([]);
  expect(ok).toBe(true);
}

describe('the document (D25)', () => {
  it('is a valid OpenAPI 3.1 document, as JSON and as YAML', async () => {
    const json = await validate(structuredClone(doc));
    expect(json.valid, json.valid ? '' : compileErrors(json)).toBe(true);
    expect(json.specification).toBe('OpenAPI');
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);

    // The parser reads the served YAML from a file with its own YAML parser.
    const dir = await tempDir('folio-openapi-');
    try {
      const file = join(dir, 'openapi.yaml');
      await writeFile(file, await (await fetch(s.at('/openapi.yaml'))).text());
      const yaml = await validate(file);
      expect(yaml.valid, yaml.valid ? '' : compileErrors(yaml)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('openapi.yaml holds the same document as openapi.json', async () => {
    const res = await fetch(s.at('/openapi.yaml'));
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(parseYaml(await res.text())).toEqual(doc);
  });

  it('has servers = [{url: base_url}] and one operation per API operation (D25)', () => {
    expect(doc.servers.map((x: any) => x.url)).toEqual([BASE]);
    const ops = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item).map(([method, op]: [string, any]) => [method, path, op.operationId]),
    );
    expect(ops).toEqual([
      ['get', '/', 'getApiIndex'],
      ['get', '/profile', 'getProfile'],
      ['get', '/services', 'listServices'],
      ['get', '/services/{id}', 'getService'],
      ['get', '/posts', 'listPosts'],
      ['get', '/posts/{slug}', 'getPost'],
      ['get', '/projects', 'listProjects'],
      ['get', '/projects/{id}', 'getProject'],
      ['get', '/availability', 'getAvailability'],
      ['get', '/changes', 'listChanges'],
      ['get', '/search', 'searchContent'],
    ]);
  });

  it('gives every parameter its schema and bounds; q is the only required query parameter', () => {
    const params = (path: string) => Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p]));
    const posts = params('/posts');
    expect(posts.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(posts.offset).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } });
    expect(posts.tag).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
    expect(params('/projects').status.schema).toEqual({ type: 'string', enum: ['live', 'sunset', 'delivered'] });
    expect(params('/search').q).toMatchObject({ in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 200 } });
    expect(params('/search').limit.schema).toMatchObject({ minimum: 1, maximum: 50, default: 10 });
    expect(params('/posts/{slug}').slug).toMatchObject({ in: 'path', required: true, schema: { type: 'string' } });
    expect(params('/projects/{id}').id).toMatchObject({ in: 'path', required: true, schema: { type: 'string' } });
    const requiredQuery = Object.values(doc.paths).flatMap((item: any) =>
      (item.get.parameters ?? []).filter((p: any) => p.in === 'query' && p.required).map((p: any) => p.name),
    );
    expect(requiredQuery).toEqual(['q']);
  });

  it('documents the 200 and every error status of each operation, with the version headers', () => {
    for (const op of operations) {
      const responses = Object.values(doc.paths).find((item: any) => item.get.operationId === op.operationId) as any;
      const statuses = Object.keys(responses.get.responses);
      for (const status of ['200', '405', '410', '500']) expect(statuses, op.operationId).toContain(status);
      if (op.errors.includes('invalid_request')) expect(statuses).toContain('400');
      if (op.errors.includes('not_found')) expect(statuses).toContain('404');
      const ok = deref.paths[Object.keys(doc.paths).find((p) => doc.paths[p].get.operationId === op.operationId)!].get.responses['200'];
      expect(Object.keys(ok.headers)).toEqual(
        expect.arrayContaining(['X-Api-Version', 'X-Api-Deprecated', 'Link', 'ETag', 'Deprecation', 'Sunset']),
      );
    }
  });

  it('writes no schema twice: components are the core schemas, and a shared one is a $ref', async () => {
    for (const [name, schema] of Object.entries(schemas)) expect(deref.components.schemas[name], name).toEqual(schema);
    for (const op of operations) expect(responseSchema(deref, op.operationId, 200)).toEqual(schemas[op.schema]);
    const text = await (await fetch(s.at('/openapi.json'))).text();
    // PostItem is used by PostList and extended by Post: its description appears once, in components.
    expect(text.split('A published post, without its body.').length - 1).toBe(1);
    expect(doc.components.schemas.PostList.properties.data.items).toEqual({ $ref: '#/components/schemas/PostItem' });
  });

  it('carries fair use and the versioning policy, and no deprecation while v1 is current', () => {
    expect(doc.info.description).toMatch(/60 requests per minute/);
    expect(doc.info.description).toMatch(/developers#versioning/);
    expect(doc.info.description).not.toMatch(/deprecation notice/i);
    for (const item of Object.values(doc.paths) as any[]) expect(item.get.deprecated).toBeUndefined();
  });
});

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
    expectValid(deref, operationId, status, await res.json());
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
      expectValid(deref, 'searchContent', 200, body);
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
      const key = Object.keys(doc.paths).find((p) =>
        new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(from.slice('/api/v1'.length)),
      )!;
      const documented = deref.paths[key].get.responses['301'];
      expect(documented, `${deref.paths[key].get.operationId} documents no 301`).toBeDefined();
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
      expectValid(deref, 'searchContent', 500, await res.json());
    } finally {
      await cold.close();
    }
  });

  it.each(
    operations.map((op) => [op.operationId, op.path.replace('{slug}', 'email-deliverability-b2b-saas').replace('{id}', 'bouncedesk')]),
  )('POST to %s → documented 405', async (operationId, path) => {
    const res = await fetch(s.at(`/api/v1${path}`), { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(405);
    expectValid(deref, operationId, 405, await res.json());
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

/** A copy of content/ with an API lifecycle in site.yaml (D19). */
async function withLifecycle(versions: string): Promise<string> {
  const content = await copyContent();
  const file = join(content, 'site.yaml');
  await writeFile(file, `${await readFile(file, 'utf8')}api:\n  versions:\n${versions}`);
  return content;
}

describe('a deprecated version (D19)', () => {
  let d: Served;
  let ddoc: any;
  let dderef: any;
  beforeAll(async () => {
    d = await serveBuilt(await withLifecycle('    v1: { deprecated: 2026-06-01, sunset: 2027-01-01, successor: v2 }\n'));
    ddoc = await (await fetch(d.at('/openapi.json'))).json();
    dderef = await dereference(structuredClone(ddoc));
  });
  afterAll(() => d?.close());

  it('repeats the notice in info.description and marks every operation deprecated', async () => {
    expect((await validate(structuredClone(ddoc))).valid).toBe(true);
    expect(ddoc.info.description).toMatch(
      /^\*\*Deprecation notice\.\*\* API v1 is deprecated since 2026-06-01 and stops responding on 2027-01-01/,
    );
    expect(ddoc.info.description).toContain(`${SITE}/api/v2`);
    for (const item of Object.values(ddoc.paths) as any[]) expect(item.get.deprecated).toBe(true);
  });

  it('repeats the notice in llms.txt', async () => {
    const text = await (await fetch(d.at('/llms.txt'))).text();
    expect(text).toMatch(/\*\*Deprecation notice:\*\* API v1 is deprecated since 2026-06-01/);
    // Still before the first H2 section, where a reader sees it first.
    expect(text.indexOf('Deprecation notice')).toBeLessThan(text.indexOf('\n## '));
  });

  it('still answers responses that validate, with the documented Deprecation and Sunset headers', async () => {
    const headerSchema = (name: string) => dderef.components.headers[name].schema;
    for (const [target, operationId] of [
      ['/api/v1/posts', 'listPosts'],
      ['/api/v1/profile', 'getProfile'],
    ] as const) {
      const res = await fetch(d.at(target));
      expect(res.status).toBe(200);
      expectValid(dderef, operationId, 200, await res.json());
      expect(res.headers.get('x-api-deprecated')).toBe('true');
      for (const name of ['Deprecation', 'Sunset', 'X-Api-Version', 'X-Api-Deprecated']) {
        const value = res.headers.get(name);
        expect(value, name).toBeTruthy();
        expect(ajv.validate(headerSchema(name), value), `${name}: ${value}`).toBe(true);
      }
    }
  });
});

describe('a retired version (D19)', () => {
  let r: Served;
  let rdoc: any;
  let rderef: any;
  beforeAll(async () => {
    r = await serveBuilt(await withLifecycle('    v1: { deprecated: 2025-01-01, sunset: 2025-07-01, successor: v2 }\n'));
    rdoc = await (await fetch(r.at('/openapi.json'))).json();
    rderef = await dereference(structuredClone(rdoc));
  });
  afterAll(() => r?.close());

  it('answers 410 on every operation, as documented, with the hint naming the successor', async () => {
    expect(rdoc.info.description).toMatch(/API v1 was retired on 2025-07-01/);
    for (const [target, operationId] of [
      ['/api/v1', 'getApiIndex'],
      ['/api/v1/posts?limit=5', 'listPosts'],
      ['/api/v1/posts/bounce-handling', 'getPost'],
      ['/api/v1/search?q=x', 'searchContent'],
    ] as const) {
      const res = await fetch(r.at(target));
      expect(res.status).toBe(410);
      const body = await res.json();
      expectValid(rderef, operationId, 410, body);
      expect(body.error.hint).toContain(`${SITE}/api/v2`);
    }
    // The successor of the same resource, its query kept.
    const paged = await (await fetch(r.at('/api/v1/posts?tag=email&limit=2'))).json();
    expect(paged.error.hint).toBe(`Use ${SITE}/api/v2/posts?tag=email&limit=2 instead.`);
  });

  it('lists none of its addresses in llms.txt or the AI catalog, as the API catalog lists none', async () => {
    const llms = await (await fetch(r.at('/llms.txt'))).text();
    expect(llms).toMatch(/API v1 was retired/);
    expect(llms).not.toMatch(/\]\(https:\/\/[^)]+\/api\/v1[/)]/);
    const ai = await (await fetch(r.at('/.well-known/ai-catalog.json'))).json();
    expect(ai.entries.map((e: { identifier: string }) => e.identifier)).not.toContainEqual(expect.stringContaining(':api:'));
    expect((await (await fetch(r.at('/.well-known/api-catalog'))).json()).linkset).toEqual([]);
  });
});
