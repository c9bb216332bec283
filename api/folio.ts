// Vercel looks for functions in api/: this re-exports folio's (see docs/hosts.md).
export const config = { runtime: 'edge' };
export { default } from '../functions/_vercel/folio.js';
