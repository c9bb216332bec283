// Types of scripts/wrangler.js, for the tests that run against wrangler pages dev.
export const ROOT: string;
export const COMPATIBILITY_DATE: string;
export function startWrangler(
  dist: string,
  options: { ready(url: string): Promise<boolean>; timeoutMs?: number },
): Promise<{ url: string; close(): Promise<void> }>;
