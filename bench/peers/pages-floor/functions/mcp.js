// Reads and parses the JSON-RPC body, as any MCP answer must, and answers an empty result.
export const onRequest = async ({ request }) => {
  const { id } = JSON.parse(await request.text());
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: {} }), { headers: { 'content-type': 'application/json' } });
};
