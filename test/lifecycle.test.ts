// D19 end to end: the same content built before, during and after v1's
// deprecation, served by `folio serve`.
import { appendFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyContent, serveBuilt } from './helpers/site.js';

const SITE = 'https://hannabrink.example';
const LIFECYCLE = 'api:\n  versions:\n    v1: { deprecated: 2027-01-01, sunset: 2027-07-01, successor: v2 }\n';
type Served = Awaited<ReturnType<typeof serveBuilt>>;
const served: Record<'current' | 'deprecated' | 'sunset', Served> = {} as never;

beforeAll(async () => {
  const content = await copyContent();
  await appendFile(join(content, 'site.yaml'), LIFECYCLE);
  served.current = await serveBuilt(content, { now: new Date('2026-12-01T00:00:00Z') });
  served.deprecated = await serveBuilt(content, { now: new Date('2027-02-01T00:00:00Z') });
  served.sunset = await serveBuilt(content, { now: new Date('2027-08-01T00:00:00Z') });
});
afterAll(async () => {
  await Promise.all(Object.values(served).map((s) => s?.close()));
});

// Independent of the implementation: RFC 9745 wants "@" + Unix seconds, RFC 8594 an IMF-fixdate.
const DEPRECATION = `@${Date.UTC(2027, 0, 1) / 1000}`;
const SUNSET = 'Thu, 01 Jul 2027 00:00:00 GMT';

describe('API version lifecycle (D19)', () => {
  it('is current before the deprecation date: no Deprecation or Sunset header', async () => {
    const res = await fetch(served.current.at('/api/v1/posts'));
    expect(res.headers.get('x-api-deprecated')).toBe('false');
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
    const discovery = (await (await fetch(served.current.at('/api/v1'))).json()) as any;
    expect(discovery.status).toBe('current');
  });

  it('is deprecated from the deprecation date: headers on successes and errors, static and computed', async () => {
    for (const path of [
      '/api/v1',
      '/api/v1/posts',
      '/api/v1/posts?limit=3',
      '/api/v1/posts/bounce-handling',
      '/api/v1/posts/nope',
      '/api/v1/projects?status=bogus',
    ]) {
      const res = await fetch(served.deprecated.at(path));
      expect(res.status, path).toBeLessThan(410);
      expect(res.headers.get('x-api-deprecated'), path).toBe('true');
      expect(res.headers.get('deprecation'), path).toBe(DEPRECATION);
      expect(res.headers.get('sunset'), path).toBe(SUNSET);
      expect(res.headers.get('link')).toBe(`<${SITE}/developers#versioning>; rel="deprecation"; type="text/html"`);
    }
    const discovery = (await (await fetch(served.deprecated.at('/api/v1'))).json()) as any;
    expect(discovery).toMatchObject({ status: 'deprecated', deprecated: '2027-01-01', sunset: '2027-07-01', successor: 'v2' });
  });

  it('keeps serving unchanged while deprecated (rule 7)', async () => {
    const before = (await (await fetch(served.current.at('/api/v1/posts/bounce-handling'))).json()) as any;
    const during = (await (await fetch(served.deprecated.at('/api/v1/posts/bounce-handling'))).json()) as any;
    expect(during).toEqual(before);
  });

  it('answers 410 gone on every address of the version after its sunset, naming the successor', async () => {
    for (const [path, successor] of [
      ['/api/v1', `${SITE}/api/v2`],
      ['/api/v1/posts', `${SITE}/api/v2/posts`],
      ['/api/v1/posts?tag=ssh', `${SITE}/api/v2/posts`],
      ['/api/v1/posts/bounce-handling', `${SITE}/api/v2/posts/bounce-handling`],
      ['/api/v1/projects/jumpcfg', `${SITE}/api/v2/projects/jumpcfg`],
      ['/api/v1/search?q=ssh', `${SITE}/api/v2/search`],
      ['/api/v1/no-such-thing', `${SITE}/api/v2/no-such-thing`],
    ] as const) {
      const res = await fetch(served.sunset.at(path));
      expect(res.status, path).toBe(410);
      const body = (await res.json()) as any;
      expect(body.error).toMatchObject({ code: 'gone', status: 410 });
      expect(body.error.hint, path).toContain(successor);
      expect(res.headers.get('x-api-deprecated')).toBe('true');
      expect(res.headers.get('sunset')).toBe(SUNSET);
    }
  });

  it('writes no v1 API file once the version is retired, so no host can serve a stale 200', async () => {
    const entries = await readdir(join(served.sunset.out, 'api', 'v1')).catch(() => []);
    expect(entries).toEqual([]);
  });
});
