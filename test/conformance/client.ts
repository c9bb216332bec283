// What every conformance check speaks to its target with: the target's URL,
// dist/ and manifest, read once it is up, plain requests that never follow a
// redirect, JSON-RPC posts to /mcp, and the API's error envelope (D17, D18).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { MANIFEST_PATH, type Manifest } from '../../build/core/files.js';
import type { Target } from './targets.js';

export type Json = any;

export interface Ctx {
  url: string;
  dist: string;
  manifest: Manifest;
  site: string;
  api: string;
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface Client {
  /** Filled by `connect` before the checks run. */
  c: Ctx;
  get(path: string, init?: RequestInit): Promise<Response>;
  json(path: string, init?: RequestInit): Promise<{ res: Response; body: Json }>;
  mcp(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** The envelope of D17 with its URLs and D18's headers. */
  expectError(res: Response, status: number, code: string): Promise<{ message: string; hint: string }>;
}

export function client(): Client {
  const c = {} as Ctx;
  const get = (path: string, init: RequestInit = {}) => fetch(c.url + path, { redirect: 'manual', ...init });
  const json = async (path: string, init?: RequestInit) => {
    const res = await get(path, init);
    return { res, body: (await res.json()) as Json };
  };
  const mcp = (body: unknown, headers: Record<string, string> = MCP_HEADERS) =>
    get('/mcp', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

  async function expectError(res: Response, status: number, code: string) {
    expect(res.status, `${res.url}`).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-api-version')).toBe('v1');
    const body = (await res.json()) as Json;
    expect(body.error).toMatchObject({ code, status, documentation_url: `${c.site}/developers`, openapi_url: `${c.site}/openapi.json` });
    expect(body.error.hint.length).toBeGreaterThan(10);
    return body.error as { message: string; hint: string };
  }

  return { c, get, json, mcp, expectError };
}

/** Points `c` at a target that is up: its URL, and the manifest of the dist/ it serves. */
export async function connect(c: Ctx, t: Target): Promise<void> {
  c.url = t.url;
  c.dist = t.dist;
  c.manifest = JSON.parse(await readFile(join(t.dist, MANIFEST_PATH), 'utf8')) as Manifest;
  c.site = c.manifest.site_url;
  c.api = `${c.site}/api/v1`;
}
