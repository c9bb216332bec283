// folio dev's server on its own, over a build of the sample (test/dev.test.ts runs it through startDev, D1):
// it serves the site with the live reload script, tells open pages what changed, shows the content's
// problems on a page, and keeps serving when clients leave or the output cannot be reloaded.
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../build/emit/build.js';
import { startDevServer } from '../build/dev/server.js';
import { problemsPage } from '../build/dev/live-reload.js';
import { devParts, POST } from './helpers/dev-parts.js';
import { NOW } from './helpers/site.js';

const s = devParts('folio-dev-server-');

describe('the dev server', () => {
  it(
    'proxies the site with live reload, shows problems, tells open pages, and goes on when clients leave',
    { timeout: 60_000 },
    async () => {
      const out = join(s.work, 'served');
      await build({ content: s.content, out, now: NOW });
      const problems: { file: string; line: number; column: number; message: string; hint: string }[] = [];
      const logged: string[] = [];
      const server = await startDevServer({ out, port: 0, host: '127.0.0.1', problems: () => problems, log: (l) => logged.push(l) });
      try {
        expect((await fetch(`${server.url}/blog`)).status).toBe(503);
        await server.refresh();
        expect(server.serving()).toBe(true);
        const page = await (await fetch(`${server.url}/blog`)).text();
        expect(page).toContain('/_folio/dev/reload.js');
        const api = await fetch(`${server.url}/api/v1/posts/${POST}`);
        expect(api.headers.get('etag')).toBeTruthy();

        // An open page's event stream gets what changed; one that left is dropped without a word.
        const gone = await fetch(`${server.url}/_folio/dev/events`);
        await gone.body!.cancel();
        const stream = await fetch(`${server.url}/_folio/dev/events`);
        const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
        await new Promise((ok) => setTimeout(ok, 50));
        server.tell(['/blog'], false);
        server.tell(['/blog'], false);
        let text = '';
        while (!text.includes('"/blog"')) text += (await reader.read()).value ?? '';
        expect(text).toContain('event: change\ndata: {"all":false,"targets":["/blog"]}');
        await reader.cancel();

        // A client that leaves before its reply: the server goes on.
        await new Promise<void>((ok) => {
          const req = request(`${server.url}/llms-full.txt`, () => undefined);
          req.on('error', () => ok());
          req.end(() => setTimeout(() => (req.destroy(), ok()), 1));
        });
        problems.push({ file: 'posts/x.md', line: 2, column: 1, message: 'A <b>bad</b> field.', hint: 'Fix it.' });
        const shown = await fetch(`${server.url}/blog`, { headers: { accept: 'text/html' } });
        expect(shown.status).toBe(500);
        expect(await shown.text()).toContain('posts/x.md:2:1</code>: A &lt;b&gt;bad&lt;/b&gt; field.');
        problems.pop();

        // The site server cannot reload (the manifest is gone): said once, and the last one keeps serving.
        await rm(join(out, '_folio', 'manifest.json'));
        await server.refresh();
        expect(logged.join('\n')).toMatch(/manifest\.json is missing/);
        expect((await fetch(`${server.url}/api/v1/posts/${POST}`)).status).toBe(200);
        expect(logged).toHaveLength(1);
      } finally {
        await server.close();
      }
    },
  );

  it('lists the problems on a page that counts them in number', () => {
    expect(problemsPage([{ file: 'a.md', line: 1, column: 1, message: 'm', hint: 'h' }])).toContain('The content has 1 problem</h1>');
  });
});
