// MCP fuzzing (D16, D17, D36, D41): random JSON-RPC bodies and headers
// (helpers/mcp-arb.ts) POSTed to /mcp of a real `folio serve`, each answered
// with JSON-RPC, a 202 or the D17 envelope; never a 5xx, -32603 or a stack
// trace, and the server keeps answering. FOLIO_FUZZ_SEED replays a seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureReport, fuzzBudget, fuzzRuns, fuzzSeed, recordFigures } from './helpers/fuzz.js';
import { mcpServer, mcpViolations, post } from './helpers/mcp.js';
import { mcpBodyArb, mcpHeadersArb } from './helpers/mcp-arb.js';
import type { RawResponse } from './helpers/raw-http.js';

const { send } = mcpServer();

describe('random JSON-RPC bodies and headers to POST /mcp', () => {
  it('answer JSON-RPC, a 202 or the envelope; never 5xx, -32603 or a crash', { timeout: fuzzBudget(60_000) }, async () => {
    const seed = fuzzSeed();
    let inputs = 0;
    let requests = 0;
    let failures = 0;
    const started = performance.now();
    const details = await fc.check(
      fc.asyncProperty(mcpBodyArb, mcpHeadersArb, async (bytes, hs) => {
        inputs++;
        const req = post(bytes, hs);
        requests++;
        let res: RawResponse;
        try {
          res = await send(req);
        } catch (error) {
          failures++;
          throw new Error(`no answer: ${(error as Error).message}`, { cause: error });
        }
        const bad = mcpViolations(req, res);
        if (inputs % 25 === 0) {
          requests++;
          const alive = await send(post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'));
          if (alive.status !== 200) bad.push('the server stopped answering tools/list');
        }
        if (bad.length) {
          failures++;
          throw new Error(
            `${JSON.stringify(hs)} ${Buffer.from(bytes).toString('utf8').slice(0, 300)} → ${res.status}: ${bad.join('; ')}\n${res.body.toString('utf8').slice(0, 300)}`,
          );
        }
      }),
      { numRuns: fuzzRuns(300), seed, interruptAfterTimeLimit: fuzzBudget(15_000), markInterruptAsFailure: false },
    );
    recordFigures({
      name: 'MCP: JSON-RPC bodies and headers',
      target: 'folio serve POST /mcp',
      inputs,
      requests,
      failures,
      seed,
      ms: Math.round(performance.now() - started),
    });
    expect(details.failed, failureReport(details)).toBe(false);
    expect(inputs).toBeGreaterThan(30);
  });
});
