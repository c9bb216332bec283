// What the OpenAPI tests share (D25, D19): a built site served by a real
// `folio serve` on 127.0.0.1 with the OpenAPI document it serves, as given and
// dereferenced by @readme/openapi-parser, and a strict Ajv 2020 that checks a
// response against the schema that document gives its operation and status.
import { dereference } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { addFormats } from './ajv.js';
import { copyContent, serveBuilt } from './site.js';

export const SITE = 'https://hannabrink.example';
export const BASE = `${SITE}/api/v1`;

type Served = Awaited<ReturnType<typeof serveBuilt>>;

export interface ServedDocument {
  /** A URL of the test server for a site path, or for an absolute site URL. */
  at(path: string): string;
  /** The served build's folder, which a test may change. */
  readonly out: string;
  /** /openapi.json as served. */
  readonly doc: any;
  /** The same document with every $ref resolved. */
  readonly deref: any;
}

/**
 * The sample (or the content `content()` makes), built and served before the
 * tests of the file or describe block that calls this, and closed after them.
 */
export function servedDocument(content?: () => Promise<string>): ServedDocument {
  let s: Served;
  let doc: any;
  let deref: any;
  beforeAll(async () => {
    s = await serveBuilt(content ? await content() : undefined);
    doc = await (await fetch(s.at('/openapi.json'))).json();
    deref = await dereference(structuredClone(doc));
  });
  afterAll(() => s?.close());
  return {
    at: (path) => s.at(path),
    get out() {
      return s.out;
    },
    get doc() {
      return doc;
    },
    get deref() {
      return deref;
    },
  };
}

/** A copy of content/ with an API lifecycle in site.yaml (D19). */
export async function withLifecycle(versions: string): Promise<string> {
  const content = await copyContent();
  const file = join(content, 'site.yaml');
  await writeFile(file, `${await readFile(file, 'utf8')}api:\n  versions:\n${versions}`);
  return content;
}

/** Strict, unlike the shared one of helpers/ajv.ts. */
export const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
addFormats(ajv);

/** The schema a dereferenced document gives an operation's response with this status. */
export function responseSchema(document: any, operationId: string, status: number) {
  for (const item of Object.values(document.paths) as any[]) {
    if (item.get?.operationId !== operationId) continue;
    const response = item.get.responses[String(status)];
    expect(response, `${operationId} documents no ${status} response`).toBeDefined();
    return response.content['application/json'].schema;
  }
  throw new Error(`No operation ${operationId} in the OpenAPI document.`);
}

const validators = new WeakMap<object, ReturnType<typeof ajv.compile>>();
export function expectValid(document: any, operationId: string, status: number, body: unknown) {
  const schema = responseSchema(document, operationId, status);
  let check = validators.get(schema);
  if (!check) validators.set(schema, (check = ajv.compile(schema)));
  const ok = check(body);
  expect(check.errors ?? [], `${operationId} ${status}: ${JSON.stringify(check.errors)}`).toEqual([]);
  expect(ok).toBe(true);
}
