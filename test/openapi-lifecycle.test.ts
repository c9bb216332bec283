// API versions past their day (D19) as the OpenAPI document (D25) and the
// served site tell them, each over its own `folio serve` on 127.0.0.1: a
// deprecated version still answers, with its notice; a retired one answers 410.
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { ajv, expectValid, servedDocument, SITE, withLifecycle } from './helpers/openapi.js';

describe('a deprecated version (D19)', () => {
  const d = servedDocument(() => withLifecycle('    v1: { deprecated: 2026-06-01, sunset: 2027-01-01, successor: v2 }\n'));

  it('repeats the notice in info.description and marks every operation deprecated', async () => {
    expect((await validate(structuredClone(d.doc))).valid).toBe(true);
    expect(d.doc.info.description).toMatch(
      /^\*\*Deprecation notice\.\*\* API v1 is deprecated since 2026-06-01 and stops responding on 2027-01-01/,
    );
    expect(d.doc.info.description).toContain(`${SITE}/api/v2`);
    for (const item of Object.values(d.doc.paths) as any[]) expect(item.get.deprecated).toBe(true);
  });

  it('repeats the notice in llms.txt', async () => {
    const text = await (await fetch(d.at('/llms.txt'))).text();
    expect(text).toMatch(/\*\*Deprecation notice:\*\* API v1 is deprecated since 2026-06-01/);
    // Still before the first H2 section, where a reader sees it first.
    expect(text.indexOf('Deprecation notice')).toBeLessThan(text.indexOf('\n## '));
  });

  it('still answers responses that validate, with the documented Deprecation and Sunset headers', async () => {
    const headerSchema = (name: string) => d.deref.components.headers[name].schema;
    for (const [target, operationId] of [
      ['/api/v1/posts', 'listPosts'],
      ['/api/v1/profile', 'getProfile'],
    ] as const) {
      const res = await fetch(d.at(target));
      expect(res.status).toBe(200);
      expectValid(d.deref, operationId, 200, await res.json());
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
  const r = servedDocument(() => withLifecycle('    v1: { deprecated: 2025-01-01, sunset: 2025-07-01, successor: v2 }\n'));

  it('answers 410 on every operation, as documented, with the hint naming the successor', async () => {
    expect(r.doc.info.description).toMatch(/API v1 was retired on 2025-07-01/);
    for (const [target, operationId] of [
      ['/api/v1', 'getApiIndex'],
      ['/api/v1/posts?limit=5', 'listPosts'],
      ['/api/v1/posts/bounce-handling', 'getPost'],
      ['/api/v1/search?q=x', 'searchContent'],
    ] as const) {
      const res = await fetch(r.at(target));
      expect(res.status).toBe(410);
      const body = await res.json();
      expectValid(r.deref, operationId, 410, body);
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
