// What the JSON API tests share: the sample served by a real `folio serve` on
// 127.0.0.1 for the file's tests, and the checks every API response meets:
// its schema, the D17 error envelope and the D18 headers.
import { afterAll, beforeAll, expect } from 'vitest';
import { schemas, type SchemaName } from '../../build/core/schemas.js';
import { ajv } from './ajv.js';
import { serveBuilt } from './site.js';

export const SITE = 'https://hannabrink.example';
export const BASE = `${SITE}/api/v1`;

export interface ApiServer {
  /** A request to the server for a site path, or for an absolute site URL. */
  get(path: string, init?: RequestInit): Promise<Response>;
  /** The response and its parsed JSON body. */
  json(path: string, init?: RequestInit): Promise<{ res: Response; body: any }>;
}

/** The sample, served before the file's tests and closed after them. */
export function apiServer(): ApiServer {
  let s: Awaited<ReturnType<typeof serveBuilt>>;
  beforeAll(async () => {
    s = await serveBuilt();
  });
  afterAll(() => s?.close());
  const get = (path: string, init?: RequestInit) => fetch(s.at(path), init);
  return {
    get,
    async json(path, init) {
      const res = await get(path, init);
      return { res, body: (await res.json()) as any };
    },
  };
}

export function expectSchema(name: SchemaName, body: unknown) {
  const validate = ajv.getSchema(name) ?? (ajv.addSchema(schemas[name]!, name), ajv.getSchema(name)!);
  const ok = validate(body);
  expect(validate.errors ?? [], `${name}: ${JSON.stringify(validate.errors)}`).toEqual([]);
  expect(ok).toBe(true);
}

/** The envelope of D17, with the status repeated inside. */
export async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = (await res.json()) as any;
  expect(body.error).toMatchObject({ code, status, documentation_url: `${SITE}/developers`, openapi_url: `${SITE}/openapi.json` });
  expect(typeof body.error.message).toBe('string');
  expect(body.error.hint.length).toBeGreaterThan(10);
  expectSchema('ErrorEnvelope', body);
  expectApiHeaders(res);
  return body.error as { message: string; hint: string };
}

/** D18 on every API response, errors included. */
export function expectApiHeaders(res: Response) {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-expose-headers')).toMatch(/ETag/);
  expect(res.headers.get('x-api-version')).toBe('v1');
  expect(res.headers.get('x-api-deprecated')).toBe('false');
  expect(res.headers.get('link')).toBe(`<${SITE}/developers#versioning>; rel="deprecation"; type="text/html"`);
  expect(res.headers.get('cache-control')).toBeTruthy();
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('deprecation')).toBeNull();
  expect(res.headers.get('sunset')).toBeNull();
}
