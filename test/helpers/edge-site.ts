// What the tests of the functions over a build's edge files share (D38, D55):
// the sample built for a file's tests and removed after them, and the
// requests to /mcp they send the functions and respond() alike.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { request } from '../../build/core/http.js';
import { buildInto } from './site.js';

type Built = Awaited<ReturnType<typeof buildInto>>;

/**
 * The sample, or with `siteUrl` the same content for another site URL (another
 * build, with files of the same names), built before the file's tests.
 */
export function edgeBuild(options: { siteUrl?: string } = {}): Pick<Built, 'out' | 'site' | 'state'> {
  let built: Built | undefined;
  beforeAll(async () => {
    built = await buildInto('content', options);
  }, 120_000);
  afterAll(async () => {
    if (built) await rm(join(built.out, '..'), { recursive: true, force: true });
  });
  return {
    get out() {
      return built!.out;
    },
    get site() {
      return built!.site;
    },
    get state() {
      return built!.state;
    },
  };
}

export const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
export const rpc = (id: number, method: string, params: unknown = {}) =>
  request('POST', '/mcp', MCP, new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id, method, params })));
export const call = (id: number, name: string, args: unknown) => rpc(id, 'tools/call', { name, arguments: args });
