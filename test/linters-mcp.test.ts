// D37, D54: the MCP Inspector CLI's --strict schema check on tools/list of the
// sample's /mcp, served by `folio serve`, and on a minimal server whose tool
// has an output schema typed ["string","null"], so a check that silently
// passes everything fails.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bin, cli, servedSample, SLOW } from './helpers/linters.js';

const s = servedSample();

describe('MCP Inspector CLI --strict on tools/list (D37, D54)', () => {
  async function inspect(url: string) {
    // HOME in the temp dir: the inspector keeps a storage folder there.
    const { stdout, stderr, code } = await cli(
      bin('inspector'),
      ['--cli', url, '--transport', 'http', '--method', 'tools/list', '--strict'],
      { HOME: s.dir },
    );
    // Node may print its own engine notices; the inspector's findings are the Warning:/Error: blocks.
    const findings = stderr.split('\n').filter((line) => /^(Warning|Error): /.test(line));
    return { tools: code === 0 ? (JSON.parse(stdout).tools as any[]) : [], findings, stderr, code };
  }

  it('lists every tool with no portability warning', SLOW, async () => {
    const { tools, findings, stderr, code } = await inspect(`${s.url}/mcp`);
    expect(code, stderr).toBe(0);
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter((t) => t.outputSchema).length).toBeGreaterThan(0);
    expect(findings, stderr).toEqual([]);
  });

  it('warns on an output schema typed ["string","null"] (the check can fail)', SLOW, async () => {
    const server = await typeArrayServer();
    try {
      const { port } = server.address() as AddressInfo;
      const { findings, stderr } = await inspect(`http://127.0.0.1:${port}/mcp`);
      expect(findings, stderr).toEqual(['Warning: tool "lookup"']);
      expect(stderr).toContain('outputSchema.properties.updated');
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

/** A minimal streamable-HTTP MCP server (plain JSON answers) whose one tool has a type-array output schema. */
async function typeArrayServer(): Promise<Server> {
  const tool = {
    name: 'lookup',
    description: 'Looks something up.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: { type: 'object', properties: { updated: { type: ['string', 'null'] } }, required: ['updated'] },
  };
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    let body = '';
    for await (const chunk of req) body += chunk;
    const message = JSON.parse(body);
    if (message.id === undefined) return void res.writeHead(202).end();
    const result =
      message.method === 'initialize'
        ? {
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'fixture', version: '1.0.0' },
          }
        : message.method === 'tools/list'
          ? { tools: [tool] }
          : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}
