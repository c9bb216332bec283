// One sample of the edge benchmark (bench/edge.js), in a fresh process of
// its own: import the Pages script wrangler built and answer one first
// request through its fetch handler,
// with env.ASSETS reading the built dist/; prints the CPU and wall time of
// import + answer, and the files read, as one JSON line.
//
//   node bench/edge-probe.js <script> <dist> <kind> <slug> <query> <offset> [again]
//
// With `again`, the same request is then answered that many more times in
// the same process, and the median CPU of those (againCpuMs) is printed too:
// what the first answer costs beyond it is V8 meeting the code for the first
// time (compiling it, its first lookups), not the function's work.
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** env.ASSETS over dist/, answering the URLs functions/_shared/folio.ts asks (Pages' `a.html` at `a`, `a/index.html` at `a/`). */
function assets(root, log) {
  const at = async (path) => {
    const full = resolve(root, path);
    if (full !== root && !full.startsWith(root + sep)) return null;
    return readFile(full).catch(() => null);
  };
  return {
    async fetch(input) {
      const path = decodeURIComponent(new URL(typeof input === 'string' || input instanceof URL ? input : input.url).pathname).slice(1);
      const candidates = path === '' || path.endsWith('/') ? [`${path}index.html`] : [path, `${path}.html`];
      for (const c of candidates) {
        const bytes = await at(c);
        if (bytes) {
          log.push(bytes.byteLength);
          return new Response(bytes, { status: 200 });
        }
      }
      return new Response('not found', { status: 404 });
    },
  };
}

export async function probe(script, dist, kind, slug, query, offset, again = '0') {
  const site = 'https://bench.example';
  // The host builds the request before the function runs, and on workerd
  // the web platform (Request, Response, streams, URL, TextDecoder) is built
  // in; in Node each loads its internals on first use, so they are used once
  // before the clock starts, for every kind alike: the figures are the
  // function's own work. Pages' router hands each function a clone of the
  // request (a tee of a POST's body) and passes the answer on as a stream:
  // in Node the first tee and the first streamed body cost some 8 ms.
  const posted = new Request(`${site}/warm-up`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  await new Request(posted.clone()).text();
  await posted.text();
  await new Response(new Response(new Uint8Array([123, 125])).body, { status: 200 }).arrayBuffer();
  new TextDecoder().decode(new TextEncoder().encode(JSON.stringify(JSON.parse('{"a":[1]}'))));
  new URL('/a%20b?c=d', site).searchParams.get('c');
  const make =
    kind === 'baseline'
      ? () => null
      : {
          mcp: () =>
            new Request(`${site}/mcp`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'site_get_post', arguments: { slug } } }),
            }),
          search: () => new Request(`${site}/api/v1/search?q=${encodeURIComponent(query)}`),
          accept: () => new Request(`${site}/blog/${slug}`, { headers: { accept: 'text/markdown' } }),
          page: () => new Request(`${site}/api/v1/posts?limit=7&offset=${offset}`),
        }[kind];
  const request = make();
  const reads = [];
  const env = { ASSETS: assets(resolve(dist), reads) };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { default: worker } = await import(pathToFileURL(script).href);
  // What workerd hands a worker beside the request: Pages' router binds waitUntil, and calls neither here.
  const ctx = { waitUntil() {}, passThroughOnException() {} };
  const importUsage = process.cpuUsage(cpu0);
  // Every kind's body is taken the same way, as bytes; what the client then
  // does with them (decode, check) is not the function's work, so it comes
  // after the clock stops.
  const answer = (req) =>
    kind === 'baseline' ? env.ASSETS.fetch(new URL(`/api/v1/posts/${slug}.json`, site)) : worker.fetch(req, env, ctx);
  const res = await answer(request);
  const bytes = await res.arrayBuffer();
  const usage = process.cpuUsage(cpu0);
  const ms = performance.now() - t0;
  const read = { reads: reads.length, readBytes: reads.reduce((a, b) => a + b, 0) };
  const later = [];
  for (let i = 0; i < Number(again); i++) {
    const req = make();
    const cpu = process.cpuUsage();
    await (await answer(req)).arrayBuffer();
    const u = process.cpuUsage(cpu);
    later.push((u.user + u.system) / 1000);
  }
  const status = res.status;
  if (kind !== 'baseline') {
    const body = new TextDecoder().decode(bytes);
    if (status !== 200 || (kind === 'mcp' && JSON.parse(body).result?.isError))
      throw new Error(`${kind} answered ${status}: ${body.slice(0, 300)}`);
  }
  console.log(
    JSON.stringify({
      cpuMs: (usage.user + usage.system) / 1000,
      importCpuMs: (importUsage.user + importUsage.system) / 1000,
      ms,
      status,
      ...read,
      ...(later.length ? { againCpuMs: later.sort((a, b) => a - b)[later.length >> 1] } : {}),
    }),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await probe(...process.argv.slice(2));
