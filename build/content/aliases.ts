// `aliases` on posts, projects and services (D48): former addresses that answer
// 301 to the page, their .md form to its twin, and a former item address
// (/blog/{old}, /projects/{old}, /services/{old}) its former API address to
// the new one. Read per file here; checked against every address in site.ts.
import { API_PREFIX, isReservedPath, twinPath } from '../core/urls.js';
import type { Fields } from './fields.js';
import type { Problem } from './problems.js';

/** An alias as written, with where it was written, for the cross-file checks. */
export interface AliasSource {
  path: string;
  line: number;
  column: number;
}

/** Characters an alias may hold: those every host's redirect file reads literally (no splat, no placeholder, no spaces). */
const PLAIN = /^\/[A-Za-z0-9._~@!$&'()+,;=%/-]*$/;

function problem(path: string): string | null {
  if (!path.startsWith('/')) return 'is not a site-relative path';
  if (path.startsWith('//')) return 'starts with //, which browsers read as another host';
  if (/[?#]/.test(path)) return 'has a query or fragment, which redirects do not match on';
  if (/[^\x00-\x7f]/.test(path)) return 'holds a character outside ASCII, which browsers send percent-encoded';
  if (!PLAIN.test(path)) return 'holds a character (space, *, :, …) that host redirect files give a meaning';
  if (path.split('/').some((seg) => seg === '.' || seg === '..')) return 'has a . or .. segment';
  if (path.length > 1 && path.endsWith('/')) return 'ends with a slash';
  if (path.endsWith('.md')) return 'ends with .md; the .md form of every alias redirects by itself';
  if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) return 'is an API address; former API addresses follow from former page addresses';
  if (isReservedPath(path)) return 'is an address folio or a host keeps for itself (the files under /_folio/ and /media/, /mcp, /api, the hosts\' configuration files)';
  return null;
}

/** How to write the alias instead: its path when it is a whole URL, percent-encoded when it is not ASCII. */
function aliasHint(path: string, example: string): string {
  let url: URL | null = null;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) url = new URL(path);
  } catch {
    // not a URL after all: the hints below
  }
  if (url) return `An alias is an address of this site: write its path, e.g. ${url.pathname === '/' ? example.split(',')[0] : url.pathname}.`;
  if (!path.startsWith('/')) return `Write it as a path from the site root, e.g. /${path.replace(/^\/*/, '')}`;
  if (/[^\x00-\x7f]/.test(path)) return `Write it percent-encoded, as browsers request it: ${encodeURI(path)}`;
  // Hugo's and Jekyll's addresses end in a slash (/2019/05/title/); the redirect answers both forms.
  if (path.length > 1 && path.endsWith('/') && !problem(path.replace(/\/+$/, '')))
    return `Write it without the slash, ${path.replace(/\/+$/, '')}: an alias answers with and without a trailing slash.`;
  return `Write the old address as a path such as ${example.split(',')[0]}`;
}

/** The `aliases` list of one file, each a valid site path, once (as tags); positions kept for the cross-file checks. */
export function readAliases(f: Fields, example: string): AliasSource[] | undefined {
  const list = f.list('aliases', example);
  if (!list) return undefined;
  const out: AliasSource[] = [];
  let ok = true;
  list.forEach((path, i) => {
    const why = problem(path);
    if (why) {
      ok = false;
      const hint = aliasHint(path, example);
      f.report('aliases', `The alias "${path}" ${why}.`, hint, i);
    } else if (!out.some((a) => a.path === path)) out.push({ path, ...f.doc.position('aliases', i) });
  });
  return ok ? out : undefined;
}

export interface AliasOwner {
  file: string;
  aliases: readonly AliasSource[];
  /** The canonical page path, e.g. /blog/new-slug. */
  page: string;
  /** The former API addresses an alias implies, with their new ones: /blog/{old} → [[/api/v1/posts/{old}, /api/v1/posts/{new}]]. */
  api?: (alias: string) => [string, string][];
}

/**
 * Every redirect the aliases make, as site path → target path, or problems:
 * an alias (or its .md or API form) that is a live address, or that another
 * alias already takes.
 */
export function redirectsOf(owners: readonly AliasOwner[], live: (path: string) => boolean, problems: Problem[]): Record<string, string> {
  const taken = new Map<string, { file: string; alias: string }>();
  const redirects: [string, string][] = [];
  for (const owner of owners) {
    for (const alias of owner.aliases) {
      const at = { file: owner.file, line: alias.line, column: alias.column };
      const pairs: [string, string][] = [
        [alias.path, owner.page],
        [twinPath(alias.path), twinPath(owner.page)],
      ];
      if (owner.api) pairs.push(...owner.api(alias.path));
      const clash = pairs.find(([from]) => live(from));
      if (clash) {
        problems.push({ ...at, message: `The alias ${alias.path} is a live address: ${clash[0]} is served by this site, so it cannot redirect.`, hint: clash[0] === owner.page ? 'Remove it: this is the address of the page itself.' : 'Remove the alias, or rename the page that lives there first.' });
        continue;
      }
      const twice = pairs.map(([from]) => [from, taken.get(from)] as const).find(([, other]) => other);
      if (twice) {
        const [from, other] = twice;
        problems.push({ ...at, message: `The alias ${alias.path} is also an alias in ${other!.file} (${other!.alias}${from === other!.alias ? '' : `, through ${from}`}).`, hint: 'An old address can lead to one page only: keep the alias on the page that replaced it and remove the other.' });
        continue;
      }
      for (const [from, to] of pairs) {
        taken.set(from, { file: owner.file, alias: alias.path });
        redirects.push([from, to]);
      }
    }
  }
  redirects.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(redirects);
}
