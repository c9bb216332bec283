// What the edge tests share: the edge head of a build, and the 500 envelope a
// deployment missing a file or mixing builds answers (D55).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { EDGE_HEAD_PATH, type EdgeHead } from '../../build/core/edge.js';

export const head = async (dir: string) => JSON.parse(await readFile(join(dir, EDGE_HEAD_PATH), 'utf8')) as EdgeHead;

/** The 500 envelope naming `file` and the fix (rebuild), without a stack. */
export async function expectDeploymentError(
  reply: { status: number; headers: Record<string, string>; body: Uint8Array | null },
  file: string,
) {
  expect(reply.status).toBe(500);
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(new TextDecoder().decode(reply.body!));
  expect(body.error.code).toBe('internal_error');
  expect(body.error.message).toContain(file);
  expect(body.error.hint).toMatch(/folio build/);
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at /);
}
