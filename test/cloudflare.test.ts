// Cloudflare Pages on its real runtime (D39): `wrangler pages dev` serves the
// built sample with the repository's functions/, offline, and the conformance
// suite that runs against `folio serve` runs here unchanged.
import { afterAll, beforeAll } from 'vitest';
import { conformance } from './conformance/suite.js';
import { buildSample, wranglerTarget, type Target } from './conformance/targets.js';

let target: Target;
let sample: Awaited<ReturnType<typeof buildSample>>;

beforeAll(async () => {
  sample = await buildSample();
  target = await wranglerTarget(sample.dist);
}, 180_000);
afterAll(async () => {
  await target?.close();
  await sample?.remove();
});

conformance('Cloudflare Pages (wrangler pages dev)', () => target);
