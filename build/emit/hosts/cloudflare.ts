// Cloudflare Pages: _headers, _redirects and _routes.json from the manifest
// (D39). Every request runs the functions in functions/ (which answer from the
// precomputed files through env.ASSETS, or from the core), except the
// addresses listed here, which Pages serves as files with the same headers.
import type { FileBytes } from '../atomic.js';
import { CLOUDFLARE } from './limits.js';
import { fileRoutes, fileUrl, GENERATED, oncePerPlan, type FileRoute, type HostPlan } from './plan.js';

/** Characters a _headers or _routes.json path may hold without meaning a splat or placeholder. */
const PLAIN_PATH = /^\/[A-Za-z0-9._~@!$&'()+,;=/-]*$/;

/**
 * The addresses Pages answers from files, within its rule budgets. Pages
 * applies _redirects before looking for a file and turns `x/index.html` into a
 * redirect, so HTML stays with the function; so does anything past the
 * budget: the function serves the same bytes and headers, it only costs an
 * invocation.
 */
export const cloudflareStatic = oncePerPlan((plan): readonly FileRoute[] => {
  const budget = Math.min(CLOUDFLARE.routesRules - 1, CLOUDFLARE.headerRules);
  const routes: FileRoute[] = [];
  for (const r of fileRoutes(plan)) {
    if (routes.length === budget) break;
    if (
      PLAIN_PATH.test(r.path) &&
      !r.file.endsWith('.html') &&
      r.path.length <= CLOUDFLARE.routesRuleLength &&
      Object.entries(r.headers).every(([k, v]) => k.length + v.length + 2 <= CLOUDFLARE.lineLength)
    )
      routes.push(r);
  }
  return routes;
});

export function printHeaders(routes: readonly FileRoute[]): string {
  const out = [`# ${GENERATED}`, '# Headers of the files Pages serves without the function; functions set the same ones in code.'];
  for (const r of routes) {
    out.push(r.path);
    for (const [name, value] of Object.entries(r.headers)) out.push(`  ${name}: ${value}`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * Addresses that moved answer 301 (D48); extension-less documents (e.g.
 * /.well-known/api-catalog) live in a folder's index file. Netlify reads the
 * same file with the same meaning.
 */
export function printRedirects(routes: readonly FileRoute[], moved: Record<string, string> = {}): string {
  const out = [`# ${GENERATED}`, '# Moved addresses (301), then rewrites (200) from extension-less addresses to the files that hold them.'];
  for (const [from, to] of Object.entries(moved)) out.push(`${from} ${to} 301`);
  for (const r of routes) if (fileUrl(r.file) !== r.path) out.push(`${r.path} ${fileUrl(r.file)} 200`);
  return `${out.join('\n')}\n`;
}

export function printRoutes(routes: readonly FileRoute[]): string {
  const spec = {
    version: 1,
    description: GENERATED,
    include: ['/*'],
    exclude: routes.map((r) => r.path),
  };
  return `${JSON.stringify(spec, null, 2)}\n`;
}

export function cloudflare(plan: HostPlan): FileBytes[] {
  const routes = cloudflareStatic(plan);
  return [
    { path: '_headers', body: printHeaders(routes) },
    { path: '_redirects', body: printRedirects(routes, plan.manifest.redirects) },
    { path: '_routes.json', body: printRoutes(routes) },
  ];
}
