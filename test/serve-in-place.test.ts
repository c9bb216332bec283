// folio serve while a file is replaced under it, as folio dev does on every
// edit (a temporary file renamed over the old one): each reply is whole and
// its ETag is the tag of the bytes it carries, old or new, never a mix.
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../build/serve.js';
import { buildInto } from './helpers/site.js';

const PATH = '/api/v1/posts/email-deliverability-b2b-saas';
let out: string;
let server: RunningServer;

beforeAll(async () => {
  ({ out } = await buildInto());
  server = await startServer({ dir: out, port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
  await rm(join(out, '..'), { recursive: true, force: true });
});

interface Answer {
  status: number;
  etag: string;
  length: number;
  body: string;
}

/** One request on its own connection, read to the end, as folio dev's proxy does. */
const get = (url: string) =>
  new Promise<Answer | string>((ok) => {
    const req = request(`${url}${PATH}`, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('aborted', () => ok('aborted'));
      res.on('end', () =>
        ok({
          status: res.statusCode!,
          etag: String(res.headers.etag),
          length: Number(res.headers['content-length']),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) => ok(error.code ?? error.message));
    req.end();
  });

describe('folio serve, a file replaced in place', () => {
  it('answers every request whole, with the ETag of the bytes it sends', async () => {
    const manifest = JSON.parse(await readFile(join(out, '_folio/manifest.json'), 'utf8')) as { routes: Record<string, [string, number]> };
    const file = join(out, manifest.routes[PATH]![0]);
    const short = await readFile(file, 'utf8');
    // Another size, so a length read from one file and bytes from the other cannot pass.
    const long = short.replace('"title":', `"padding":"${'x'.repeat(4000)}","title":`);
    expect(long.length).toBeGreaterThan(short.length + 3000);
    const put = async (text: string) => {
      await writeFile(`${file}.tmp`, text);
      await rename(`${file}.tmp`, file);
    };
    // The tag of each version, read while it stands still.
    const tags = new Map<string, string>();
    for (const text of [long, short]) {
      await put(text);
      const answer = await get(server.url);
      if (typeof answer === 'string') throw new Error(answer);
      expect(answer.body).toBe(text);
      tags.set(text, answer.etag);
    }
    expect(tags.get(long)).not.toBe(tags.get(short));

    let writing = true;
    const started = Date.now();
    const writer = (async () => {
      for (let i = 0; writing && i < 5000 && Date.now() - started < 20_000; i++) await put(i % 2 ? short : long);
    })();
    const wrong: unknown[] = [];
    let asked = 0;
    for (; asked < 600 && Date.now() - started < 15_000; asked++) {
      const answer = await get(server.url);
      const whole =
        typeof answer !== 'string' &&
        answer.status === 200 &&
        answer.length === Buffer.byteLength(answer.body) &&
        tags.get(answer.body) === answer.etag;
      if (!whole)
        wrong.push(
          typeof answer === 'string'
            ? answer
            : { status: answer.status, etag: answer.etag, length: answer.length, bytes: Buffer.byteLength(answer.body) },
        );
    }
    writing = false;
    await writer;
    await put(short);
    expect(asked).toBeGreaterThan(50);
    expect(wrong.slice(0, 5), `${wrong.length} of ${asked} replies were cut off or mixed`).toEqual([]);
  }, 60_000);

  it('answers a file gone from under the manifest as the functions do: the D17 500 naming it and the fix', async () => {
    const manifest = JSON.parse(await readFile(join(out, '_folio/manifest.json'), 'utf8')) as { routes: Record<string, [string, number]> };
    const path = '/api/v1/profile';
    const file = manifest.routes[path]![0];
    const kept = await readFile(join(out, file));
    await rm(join(out, file));
    try {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(500);
      // The version headers and absolute URLs of every other error (D17, D18), not a bare 500.
      expect(res.headers.get('x-api-version')).toBe('v1');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const { error } = (await res.json()) as { error: Record<string, string> };
      expect(error).toMatchObject({
        code: 'internal_error',
        status: 500,
        documentation_url: 'https://hannabrink.example/developers',
        openapi_url: 'https://hannabrink.example/openapi.json',
      });
      expect(error.message).toContain(file);
      expect(error.hint).toContain('folio build');
    } finally {
      await writeFile(join(out, file), kept);
    }
  });

  it.skipIf(!existsSync('/proc/self/fd'))(
    'keeps no file open after clients that went away mid-body, or asked with HEAD or If-None-Match',
    async () => {
      await fileDescriptorsLetGo(server);
    },
    60_000,
  );

  it.skipIf(!existsSync('/proc/self/fd'))(
    'with a small memory budget, streams the files it does not keep: same bytes and ETags, and no file left open',
    async () => {
      // 64 KiB: files over 8 KiB are streamed from their descriptor and only their ETag kept.
      const small = await startServer({ dir: out, port: 0, host: '127.0.0.1', cacheBytes: 64 * 1024 });
      try {
        for (const path of ['/llms-full.txt', '/llms-full.txt', PATH, '/blog', '/blog', '/feed.xml']) {
          const [a, b] = await Promise.all([fetch(`${server.url}${path}`), fetch(`${small.url}${path}`)]);
          expect(b.status).toBe(200);
          expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
          expect(b.headers.get('content-length')).toBe(a.headers.get('content-length'));
          expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer()))).toBe(true);
        }
        await fileDescriptorsLetGo(small);
      } finally {
        await small.close();
      }
    },
    60_000,
  );
});

/** Opens the large file many ways (read whole, left mid-body, HEAD, If-None-Match), then expects no descriptor of the output left open. */
async function fileDescriptorsLetGo(server: RunningServer): Promise<void> {
  const big = '/llms-full.txt';
  const first = await fetch(`${server.url}${big}`);
  const tag = first.headers.get('etag')!;
  await first.arrayBuffer();
  for (let i = 0; i < 30; i++) {
    // Gone after the first chunk.
    await new Promise<void>((ok) => {
      const req = request(`${server.url}${big}`, { agent: false }, (res) => res.once('data', () => (req.destroy(), ok())));
      req.on('error', () => ok());
      req.end();
    });
    await (await fetch(`${server.url}${big}`, { method: 'HEAD' })).arrayBuffer();
    expect((await fetch(`${server.url}${big}`, { headers: { 'if-none-match': tag } })).status).toBe(304);
  }
  const open = async () => {
    const links = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
    return links.filter((link) => link.startsWith(out));
  };
  await expect.poll(open, { timeout: 5_000, interval: 50 }).toEqual([]);
}
