// The one conformance suite (D38, D39): what any deployment of a folio dist
// must answer, run unchanged against `folio serve` and against Cloudflare's
// runtime. It speaks HTTP only, and every family must answer: nothing is
// skipped, so a feature broken on one runtime fails here.
import { beforeAll, describe } from 'vitest';
import { jsonApi } from './api.js';
import { client, connect } from './client.js';
import { machineReadableAddresses } from './machine-readable.js';
import { mcpEndpoint } from './mcp.js';
import { movedAndStaticFiles } from './moved-and-static.js';
import { pagesAndTwins } from './pages.js';
import { precomputedFiles } from './precomputed.js';
import type { Target } from './targets.js';

export function conformance(label: string, target: () => Target): void {
  const http = client();
  describe(`conformance: ${label}`, () => {
    beforeAll(() => connect(http.c, target()));

    precomputedFiles(http);
    jsonApi(http);
    pagesAndTwins(http);
    machineReadableAddresses(http);
    movedAndStaticFiles(http);
    mcpEndpoint(http);
  });
}
