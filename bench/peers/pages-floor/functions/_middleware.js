// Pages' router with nothing of folio's behind it (bench/edge.js): one
// middleware, as in functions/, answering each request at once, so that what
// the router and a request's plumbing cost on a cold start is seen apart from
// folio's own code. An MCP call's JSON-RPC body is read and parsed, as any
// MCP answer must; anything else answers a small Markdown page.
export const onRequest = async ({ request }) => {
  if (new URL(request.url).pathname === '/mcp') {
    const { id } = JSON.parse(await request.text());
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: {} }), { headers: { 'content-type': 'application/json' } });
  }
  return new Response('# A page\n', { headers: { 'content-type': 'text/markdown; charset=utf-8' } });
};
