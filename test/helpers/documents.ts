// The sample site served on 127.0.0.1 for the tests of its machine-readable
// documents (D26–D35): fetches by site path, the same-origin check on the URLs
// they link, and the posts, projects, services and tags its API lists.
import { afterAll, beforeAll, expect } from 'vitest';
import { serveBuilt } from './site.js';

export const SITE = 'https://hannabrink.example';
export const BASE = `${SITE}/api/v1`;

export type ServedDocuments = {
  /** A request for a site path (or an absolute site URL) to the test server. */
  get(path: string, init?: RequestInit): Promise<Response>;
  text(path: string): Promise<string>;
  json(path: string): Promise<any>;
  /** A site URL on the test server: only same-origin links are followed. */
  local(url: string): string;
  posts: any[];
  projects: any[];
  services: any[];
  /** Every tag of the posts, sorted. */
  tags: string[];
};

/**
 * The sample, built and served before the file's tests and stopped after them.
 * Its lists are filled in place once beforeAll has run, so a file may destructure them.
 */
export function servedDocuments(): ServedDocuments {
  let server: Awaited<ReturnType<typeof serveBuilt>> | undefined;
  const get = (path: string, init?: RequestInit) => fetch(server!.at(path), init);
  const d: ServedDocuments = {
    get,
    text: async (path) => (await get(path)).text(),
    json: async (path) => (await get(path)).json() as Promise<any>,
    local(url) {
      expect(url.startsWith(`${SITE}/`), `${url} is not on ${SITE}`).toBe(true);
      return url.slice(SITE.length);
    },
    posts: [],
    projects: [],
    services: [],
    tags: [],
  };
  beforeAll(async () => {
    server = await serveBuilt();
    d.posts.push(...((await d.json('/api/v1/posts?limit=100')) as any).data);
    d.projects.push(...((await d.json('/api/v1/projects')) as any).data);
    d.services.push(...((await d.json('/api/v1/services')) as any).data);
    d.tags.push(...[...new Set(d.posts.flatMap((p) => p.tags as string[]))].sort());
  });
  afterAll(() => server?.close());
  return d;
}
