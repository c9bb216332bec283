// The manifest (core/files.ts) as a build holds it while it routes: the
// routes in a Map, in the order they are routed. At 10,000 posts a build
// routes some 32,000 addresses; as the keys of a plain object each one would
// be internalized into a dictionary, and each Object.keys() of it would sort
// them again, once per artifact that reads them (6 % of a one-post edit's CPU).
//
// Its file is jsonText() of the plain object. After an edit that kept every
// address in its place, the file is the previous one with the routes that
// changed, and the fields before and after the routes, made again: making
// the plain object and its text costs such an edit 0.25 s at 10,000 posts
// (the patch about half that), for a file of which a few lines change.
import type { FileRoute, Manifest } from '../core/files.js';
import { jsonText, utf8 } from '../core/http.js';

export interface BuiltManifest extends Omit<Manifest, 'routes'> {
  routes: Map<string, FileRoute>;
}

/** The manifest as its file holds it, its fields in the order the file lists them. */
export function manifestFile({ version, site_url, build, header_sets, routes, fallbacks, redirects }: BuiltManifest): Manifest {
  return { version, site_url, build, header_sets, routes: Object.fromEntries(routes), fallbacks, redirects };
}

/**
 * The previous build's manifest file, when this build has the same routes
 * in the same order (targetsDigest), and which of them it routed exactly as
 * that file does (by their place: Ledger.carried).
 */
export interface PreviousManifest {
  bytes: Uint8Array;
  carried: (place: number) => boolean;
}

/** The bytes of the manifest's file: from `previous` when it can be, else made whole. */
export function manifestBytes(manifest: BuiltManifest, previous: PreviousManifest | null): Uint8Array {
  return (previous && patched(manifest, previous)) ?? utf8(jsonText(manifestFile(manifest)));
}

// JSON.stringify(…, null, 2) puts the top-level keys two spaces in, the routes four, their values
// six: only the routes field itself starts so, and only a route ends with a bracket four spaces in.
const ROUTES_OPEN = '\n  "routes": {\n';
// As bytes: a string needle is converted again at each of the 31,000 searches of a 10,000-post site's file.
const ROUTE_END = Buffer.from('\n    ]');
const SEPARATOR = ',\n';
const [COMMA, NEWLINE] = [0x2c, 0x0a];

/** A route's text as JSON.stringify(…, null, 2) writes it inside the routes. */
const routeText = (target: string, route: FileRoute) =>
  `    ${JSON.stringify(target)}: ${JSON.stringify(route, null, 2).replaceAll('\n', '\n    ')}`;

/**
 * The manifest's text from the previous file: its routes carried as they
 * were, as its bytes; the others, and the text around the routes, made.
 * Null when the previous file does not hold as many routes where they are
 * expected (then it is made whole).
 */
function patched(manifest: BuiltManifest, previous: PreviousManifest): Uint8Array | null {
  const { bytes, carried } = previous;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const open = text.indexOf(ROUTES_OPEN);
  if (open < 0 || manifest.routes.size === 0) return null;
  // The text around the routes, made with none: "routes": {} splits into the head and the tail.
  const whole = jsonText(manifestFile({ ...manifest, routes: new Map() }));
  const split = whole.indexOf('"routes": {}') + '"routes": {'.length;
  const pieces: Uint8Array[] = [utf8(`${whole.slice(0, split)}\n`)];
  // Route k is its bytes after the end of route k - 1 (the separator first) up to its closing bracket.
  let at = open + ROUTES_OPEN.length;
  let run = -1;
  let place = 0;
  let lost = false;
  // forEach: a for-of over the entries made an array of each of 31,000 at 10,000 posts.
  manifest.routes.forEach((route, target) => {
    if (lost) return;
    const end = text.indexOf(ROUTE_END, at);
    if (end < 0 || (place > 0 && (text[at] !== COMMA || text[at + 1] !== NEWLINE))) {
      lost = true;
      return;
    }
    if (carried(place)) {
      if (run < 0) run = at;
    } else {
      if (run >= 0) pieces.push(text.subarray(run, at));
      run = -1;
      pieces.push(utf8(`${place > 0 ? SEPARATOR : ''}${routeText(target, route)}`));
    }
    at = end + ROUTE_END.byteLength;
    place++;
  });
  if (lost || !text.toString('latin1', at, at + 4).startsWith('\n  }')) return null;
  if (run >= 0) pieces.push(text.subarray(run, at));
  pieces.push(utf8(`\n  ${whole.slice(split)}`));
  return Buffer.concat(pieces);
}
