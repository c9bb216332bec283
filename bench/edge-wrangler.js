// Edge cold cost on Cloudflare's own runtime (D55): `wrangler pages dev` on
// the built dist/, started afresh for every sample, answers one first request
// of each kind. It is ready when it serves robots.txt, a file _routes.json
// keeps from the functions, so the functions have answered nothing before the
// request measured. Wall time of that request (workerd's CPU time is not
// visible from here), median of RUNS, sizes and kinds interleaved; a static file read
// the same way is the floor.
import { startWrangler } from '../scripts/wrangler.js';

// Five: at three, one slow start of workerd moved a ratio between sizes past its target.
const RUNS = 5;
export const WRANGLER_KINDS = [
  ['mcp', 'MCP `site_get_post`'],
  ['search', 'search'],
  ['accept', 'Markdown by `Accept`'],
  ['page', 'a non-enumerated page'],
  ['static', 'floor: a static file (no function)'],
];

function request(url, kind, { slug, query, offset }) {
  switch (kind) {
    case 'mcp':
      return fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'site_get_post', arguments: { slug } } }),
      });
    case 'search':
      return fetch(`${url}/api/v1/search?q=${encodeURIComponent(query)}`);
    case 'accept':
      return fetch(`${url}/blog/${slug}`, { headers: { accept: 'text/markdown' } });
    case 'page':
      return fetch(`${url}/api/v1/posts?limit=7&offset=${offset}`);
    default:
      return fetch(`${url}/server.json`);
  }
}

/**
 * Median wall time of each kind's first request on a fresh `wrangler pages
 * dev` of each dist (`runs`: `[{ dist, slug, query, offset }]`), the sizes
 * and kinds interleaved in each round; one result per dist, in order.
 */
export async function benchWrangler({ runs, log = console.log }) {
  const samples = runs.map(() => Object.fromEntries(WRANGLER_KINDS.map(([k]) => [k, []])));
  for (let i = 0; i < RUNS; i++) {
    for (const [at, { dist, slug, query, offset }] of runs.entries()) {
      for (const [kind] of WRANGLER_KINDS) {
        const server = await startWrangler(dist, {
          ready: (url) => fetch(`${url}/robots.txt`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status === 200),
        });
        try {
          const t0 = performance.now();
          const res = await request(server.url, kind, { slug, query, offset });
          const body = await res.text();
          const ms = performance.now() - t0;
          if (res.status !== 200 || (kind === 'mcp' && JSON.parse(body).result?.isError))
            throw new Error(`wrangler: ${kind} answered ${res.status}: ${body.slice(0, 300)}`);
          samples[at][kind].push(ms);
        } finally {
          await server.close();
        }
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return runs.map(({ size }, at) => {
    const kinds = Object.fromEntries(WRANGLER_KINDS.map(([k]) => [k, { ms: median(samples[at][k]), runs: samples[at][k] }]));
    log(`  edge on wrangler pages dev, ${size} posts: ${WRANGLER_KINDS.map(([k]) => `${k} ${kinds[k].ms.toFixed(1)} ms`).join(', ')}`);
    return { kinds };
  });
}

/** The wrangler table of the edge section, from `[{ size, edge }]` (sizes without figures left out). */
export function wranglerLines(sizes) {
  const done = sizes.filter((s) => s.edge?.wrangler?.kinds);
  if (!done.length) return [];
  const small = done.find((s) => s.size === 1000) ?? done[0];
  const big = done.find((s) => s.size === 10000) ?? done[done.length - 1];
  const two = small !== big;
  const ms = (x) => `${x.toFixed(1)} ms`;
  const lines = [
    '',
    `On \`wrangler pages dev\` (workerd), started afresh for each sample and ready once it serves a static file, so each request below is the functions' first: wall time of that request, median of ${RUNS}, sizes and kinds interleaved.`,
    '',
    `| Request | ${done.map((s) => `first request, ${s.size.toLocaleString('en')} posts`).join(' | ')} |${two ? ` ${big.size.toLocaleString('en')} ÷ ${small.size.toLocaleString('en')} (target ≤ 1.5×) |` : ''}`,
    `| --- |${' ---: |'.repeat(done.length)}${two ? ' ---: |' : ''}`,
  ];
  for (const [kind, label] of WRANGLER_KINDS) {
    const ratio = two ? big.edge.wrangler.kinds[kind].ms / small.edge.wrangler.kinds[kind].ms : null;
    const verdict = kind === 'static' ? '' : ratio <= 1.5 ? ' (met)' : ' (**missed**)';
    lines.push(
      `| ${label} | ${done.map((s) => ms(s.edge.wrangler.kinds[kind].ms)).join(' | ')} |${two ? ` ${ratio.toFixed(2)}×${verdict} |` : ''}`,
    );
  }
  return lines;
}
