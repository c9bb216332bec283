// The OpenAPI 3.1 description (D25) as `folio serve` gives it on 127.0.0.1,
// checked by @readme/openapi-parser: valid as JSON and as YAML, one operation
// per API operation with its parameters, statuses and headers, each schema once.
import { compileErrors, validate } from '@readme/openapi-parser';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { operations } from '../build/core/api/operations.js';
import { schemas } from '../build/core/schemas.js';
import { BASE, responseSchema, servedDocument } from './helpers/openapi.js';
import { tempDir } from './helpers/site.js';

const s = servedDocument();

describe('the document (D25)', () => {
  it('is a valid OpenAPI 3.1 document, as JSON and as YAML', async () => {
    const json = await validate(structuredClone(s.doc));
    expect(json.valid, json.valid ? '' : compileErrors(json)).toBe(true);
    expect(json.specification).toBe('OpenAPI');
    expect(s.doc.openapi).toMatch(/^3\.1\.\d+$/);

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
    expect(parseYaml(await res.text())).toEqual(s.doc);
  });

  it('has servers = [{url: base_url}] and one operation per API operation (D25)', () => {
    expect(s.doc.servers.map((x: any) => x.url)).toEqual([BASE]);
    const ops = Object.entries(s.doc.paths).flatMap(([path, item]: [string, any]) =>
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
    const params = (path: string) => Object.fromEntries(s.doc.paths[path].get.parameters.map((p: any) => [p.name, p]));
    const posts = params('/posts');
    expect(posts.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(posts.offset).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } });
    expect(posts.tag).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
    expect(params('/projects').status.schema).toEqual({ type: 'string', enum: ['live', 'sunset', 'delivered'] });
    expect(params('/search').q).toMatchObject({ in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 200 } });
    expect(params('/search').limit.schema).toMatchObject({ minimum: 1, maximum: 50, default: 10 });
    expect(params('/posts/{slug}').slug).toMatchObject({ in: 'path', required: true, schema: { type: 'string' } });
    expect(params('/projects/{id}').id).toMatchObject({ in: 'path', required: true, schema: { type: 'string' } });
    const requiredQuery = Object.values(s.doc.paths).flatMap((item: any) =>
      (item.get.parameters ?? []).filter((p: any) => p.in === 'query' && p.required).map((p: any) => p.name),
    );
    expect(requiredQuery).toEqual(['q']);
  });

  it('documents the 200 and every error status of each operation, with the version headers', () => {
    for (const op of operations) {
      const responses = Object.values(s.doc.paths).find((item: any) => item.get.operationId === op.operationId) as any;
      const statuses = Object.keys(responses.get.responses);
      for (const status of ['200', '405', '410', '500']) expect(statuses, op.operationId).toContain(status);
      if (op.errors.includes('invalid_request')) expect(statuses).toContain('400');
      if (op.errors.includes('not_found')) expect(statuses).toContain('404');
      const ok =
        s.deref.paths[Object.keys(s.doc.paths).find((p) => s.doc.paths[p].get.operationId === op.operationId)!].get.responses['200'];
      expect(Object.keys(ok.headers)).toEqual(
        expect.arrayContaining(['X-Api-Version', 'X-Api-Deprecated', 'Link', 'ETag', 'Deprecation', 'Sunset']),
      );
    }
  });

  it('writes no schema twice: components are the core schemas, and a shared one is a $ref', async () => {
    for (const [name, schema] of Object.entries(schemas)) expect(s.deref.components.schemas[name], name).toEqual(schema);
    for (const op of operations) expect(responseSchema(s.deref, op.operationId, 200)).toEqual(schemas[op.schema]);
    const text = await (await fetch(s.at('/openapi.json'))).text();
    // PostItem is used by PostList and extended by Post: its description appears once, in components.
    expect(text.split('A published post, without its body.').length - 1).toBe(1);
    expect(s.doc.components.schemas.PostList.properties.data.items).toEqual({ $ref: '#/components/schemas/PostItem' });
  });

  it('carries fair use and the versioning policy, and no deprecation while v1 is current', () => {
    expect(s.doc.info.description).toMatch(/60 requests per minute/);
    expect(s.doc.info.description).toMatch(/developers#versioning/);
    expect(s.doc.info.description).not.toMatch(/deprecation notice/i);
    for (const item of Object.values(s.doc.paths) as any[]) expect(item.get.deprecated).toBeUndefined();
  });
});
