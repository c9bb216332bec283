// Faults (D16, D17, D55): a missing or corrupt search index when the function
// starts (the head of the sharded index the functions read). Search answers
// the 500 internal_error envelope naming the file and the fix (no stack
// trace), keeps doing so without taking the process down, and every other
// address of the site keeps working.
import { cp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_HEAD_PATH } from '../build/core/edge.js';
import { SEARCH_INDEX_PATH } from '../build/core/files.js';
import { startServer } from '../build/serve.js';
import { buildInto } from './helpers/site.js';

let root: string;
let intact: string;

beforeAll(async () => {
  const built = await buildInto();
  intact = built.out;
  root = join(built.out, '..');
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** A copy of the build with the index replaced (null: deleted), served fresh as a cold function would be. */
async function serveWithIndex(name: string, index: string | Uint8Array | null) {
  const dir = join(root, name);
  await cp(intact, dir, { recursive: true });
  const file = join(dir, SEARCH_HEAD_PATH);
  if (index === null) await rm(file, { force: true });
  else await writeFile(file, index);
  return startServer({ dir, port: 0, host: '127.0.0.1' });
}

const SITE = 'https://hannabrink.example';

async function expectInternalError(res: Response) {
  expect(res.status).toBe(500);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('x-api-version')).toBe('v1');
  const text = await res.text();
  expect(text).not.toMatch(/\n\s+at |SyntaxError|TypeError/);
  const body = JSON.parse(text);
  expect(body.error.message).toContain(SEARCH_HEAD_PATH);
  expect(body.error.hint).toMatch(/folio build/);
  expect(body.error).toMatchObject({
    code: 'internal_error',
    status: 500,
    documentation_url: `${SITE}/developers`,
    openapi_url: `${SITE}/openapi.json`,
  });
  expect(body.error.hint.length).toBeGreaterThan(10);
}

/** Addresses that never need the index: precomputed files and respond() at run time. */
const ELSEWHERE = [
  '/api/v1',
  '/api/v1/posts',
  '/api/v1/posts?limit=3&offset=1',
  '/api/v1/projects?status=live',
  '/api/v1/posts/retiring-pid-files',
];

const CORRUPTIONS: [string, string | Uint8Array | null][] = [
  ['deleted', null],
  ['empty', ''],
  ['truncated JSON', '{"version":1,"docs":[{"id":"a"'],
  ['JSON of the wrong shape', '{"hello":"world"}'],
  ['a JSON array', '[1,2,3]'],
  ['binary garbage', new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 151 + 7) % 256))],
  ['JSON null', 'null'],
];

describe('a missing or corrupt search index (D16, D17)', () => {
  it('the intact build ships an index that answers searches', async () => {
    expect(existsSync(join(intact, SEARCH_INDEX_PATH))).toBe(true);
    const server = await startServer({ dir: intact, port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${server.url}/api/v1/search?q=deliverabilty`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it.each(CORRUPTIONS)(
    'index %s: search answers the 500 envelope, again and again, and the rest of the site works',
    async (name, index) => {
      const server = await serveWithIndex(name.replace(/\W+/g, '-'), index);
      try {
        for (let i = 0; i < 3; i++) await expectInternalError(await fetch(`${server.url}/api/v1/search?q=ssh`));
        const head = await fetch(`${server.url}/api/v1/search?q=ssh`, { method: 'HEAD' });
        expect(head.status).toBe(500);
        // The request errors a client can fix still come first.
        const blank = await fetch(`${server.url}/api/v1/search?q=%20`);
        expect([400, 500]).toContain(blank.status);
        for (const path of ELSEWHERE) {
          const res = await fetch(`${server.url}${path}`);
          expect(res.status, path).toBe(200);
          expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
          await res.arrayBuffer();
        }
        await expectInternalError(await fetch(`${server.url}/api/v1/search?q=email`));
      } finally {
        await server.close();
      }
    },
  );
});
