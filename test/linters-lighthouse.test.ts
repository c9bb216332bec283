// D54, for Lighthouse's SEO audit, which reads robots.txt from inside the
// page: the sample's Content-Security-Policy, as header and as meta element,
// allows connect-src 'self' and nothing wider.
import { describe, expect, it } from 'vitest';
import { servedSample } from './helpers/linters.js';

const s = servedSample();

describe("the page policy lets an in-page audit read robots.txt (D54, Lighthouse's SEO audit)", () => {
  it("allows connect-src 'self' in the header and the meta policy of the home page and a post, and nothing wider", async () => {
    const post = s.site.posts[0]!;
    for (const path of ['/', `/blog/${post.slug}`]) {
      const res = await fetch(s.at(path));
      expect(res.status, path).toBe(200);
      const header = res.headers.get('content-security-policy')!;
      const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(await res.text())![1]!.replaceAll('&#39;', "'");
      for (const policy of [header, meta]) {
        const connect = policy
          .split(';')
          .map((d) => d.trim())
          .filter((d) => d.startsWith('connect-src'));
        expect(connect, path).toEqual(["connect-src 'self'"]);
        expect(policy, path).not.toMatch(/script-src/);
      }
    }
    expect((await fetch(s.at('/robots.txt'))).status).toBe(200);
  });
});
