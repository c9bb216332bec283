// Content-Type by file extension, for files copied as they are (D43). Text
// types say their charset; anything unknown is served as bytes.
import { CACHE, CORS } from './headers.js';
import type { Headers } from './http.js';

const TYPES: Record<string, string> = {
  // A PGP signature or key in ASCII armour (security.txt.asc, a public key), to be read as text.
  asc: 'text/plain; charset=utf-8',
  avif: 'image/avif',
  bmp: 'image/bmp',
  css: 'text/css; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  gif: 'image/gif',
  htm: 'text/html; charset=utf-8',
  html: 'text/html; charset=utf-8',
  ico: 'image/x-icon',
  ics: 'text/calendar; charset=utf-8',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  jsonld: 'application/ld+json',
  md: 'text/markdown; charset=utf-8',
  // An ES module: browsers refuse a module script of another type, and nosniff keeps them from guessing.
  mjs: 'text/javascript; charset=utf-8',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  otf: 'font/otf',
  pdf: 'application/pdf',
  png: 'image/png',
  svg: 'image/svg+xml',
  ttf: 'font/ttf',
  txt: 'text/plain; charset=utf-8',
  vcf: 'text/vcard; charset=utf-8',
  wasm: 'application/wasm',
  webm: 'video/webm',
  webmanifest: 'application/manifest+json',
  webp: 'image/webp',
  woff: 'font/woff',
  woff2: 'font/woff2',
  xml: 'application/xml; charset=utf-8',
  yaml: 'application/yaml; charset=utf-8',
  yml: 'application/yaml; charset=utf-8',
  zip: 'application/zip',
};

export const BINARY = 'application/octet-stream';

/** The Content-Type of a file path, by its extension (case-insensitive). */
export function mediaTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 && !name.startsWith('.')) return BINARY;
  return TYPES[name.slice(dot + 1).toLowerCase()] ?? BINARY;
}

/** Raster formats that Facebook, X and LinkedIn show as a link preview; none shows SVG. */
const CARD_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** The card type (CARD_TYPES) a file's first bytes say it holds, or null: what its extension promises is checked against it. */
export function cardImageType(start: Uint8Array): string | null {
  if (start[0] === 0x89 && ascii(start, 1, 4) === 'PNG') return 'image/png';
  if (start[0] === 0xff && start[1] === 0xd8 && start[2] === 0xff) return 'image/jpeg';
  if (/^GIF8[79]a$/.test(ascii(start, 0, 6))) return 'image/gif';
  if (ascii(start, 0, 4) === 'RIFF' && ascii(start, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(start, 4, 8) === 'ftyp' && /^avi[fs]$/.test(ascii(start, 8, 12))) return 'image/avif';
  return null;
}

/** Whether the file at this path or URL may be a social card's image (D50), by its extension. */
export function isCardImage(path: string): boolean {
  return CARD_TYPES.has(mediaTypeOf(path));
}

/** Whether the file at this path is of an image type content may show (D44: the card types and SVG), by its extension. */
export function isImagePath(path: string): boolean {
  const type = mediaTypeOf(path);
  return CARD_TYPES.has(type) || type === 'image/svg+xml';
}

/**
 * Headers of a file copied from content/static/ (D43): its type, CORS and
 * nosniff like every other address, revalidated with its ETag. An SVG opened
 * on its own may not run script (D44's rule for images).
 */
export function staticHeaders(contentType: string): Headers {
  const headers: Headers = { 'content-type': contentType, ...CORS, 'cache-control': CACHE.content, 'x-content-type-options': 'nosniff' };
  if (contentType === 'image/svg+xml') headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'";
  return headers;
}
