// The conformance suite against `folio serve` (D1, D38): the local stand-in
// for a CDN. test/cloudflare.test.ts runs the same suite on Cloudflare's runtime.
import { afterAll, beforeAll } from 'vitest';
import { conformance } from './suite.js';
import { buildSample, serveTarget, type Target } from './targets.js';

let target: Target;
let sample: Awaited<ReturnType<typeof buildSample>>;

beforeAll(async () => {
  sample = await buildSample();
  target = await serveTarget(sample.dist);
});
afterAll(async () => {
  await target?.close();
  await sample?.remove();
});

conformance('folio serve', () => target);
