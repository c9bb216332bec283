// What site.yaml says about reuse of the site: the license of the writing
// (D51), the AI usage preferences (D52) and the default social image (D50).
// Each map's keys are checked, so a typo is an error rather than a silent
// "nothing stated".
import { cardImageType, isCardImage, mediaTypeOf } from '../core/media-types.js';
import type { AiPreferences, License, Preference, SiteConfig } from '../core/model.js';
import type { Fields } from './fields.js';
import { closest } from './problems.js';

export const SITE_TERM_FIELDS = ['license', 'ai_preferences', 'social_image', 'social_image_alt'] as const;

export const LICENSE_KEYS = ['name', 'url'] as const;
export const AI_PREFERENCE_KEYS = ['search', 'ai_input', 'ai_train'] as const;

const LICENSE_EXAMPLE = 'license: { name: CC BY 4.0, url: https://creativecommons.org/licenses/by/4.0/ }';
const AI_EXAMPLE = 'ai_preferences: { search: yes, ai_input: yes, ai_train: no }';
const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** Reports every key of `map` that is not one of `valid`, at that key. */
function unknownKeys(f: Fields, field: string, map: Record<string, unknown>, valid: readonly string[]): boolean {
  let ok = true;
  for (const key of Object.keys(map)) {
    if (valid.includes(key)) continue;
    const near = closest(key, valid);
    f.report(`${field}.${key}`, `\`${key}\` is not a key of \`${field}\`.`, `${near ? `Did you mean "${near}"? ` : ''}Valid keys: ${valid.join(', ')}.`);
    ok = false;
  }
  return ok;
}

export function readLicense(f: Fields): License | null | undefined {
  const map = f.map('license', `{ name: CC BY 4.0, url: https://creativecommons.org/licenses/by/4.0/ }`, false);
  if (!map) return map === undefined && f.has('license') ? undefined : null;
  let ok = unknownKeys(f, 'license', map, LICENSE_KEYS);
  const text = (key: 'name' | 'url') => {
    const v = map[key];
    if (typeof v === 'string' && v.trim()) return v.trim();
    f.report(v === undefined ? 'license' : `license.${key}`, v === undefined ? `\`license\` needs \`${key}\`.` : `\`license.${key}\` must be text.`, `Write it as ${LICENSE_EXAMPLE}`);
    ok = false;
    return undefined;
  };
  const name = text('name');
  const url = text('url');
  if (url && !HTTP_URL.test(url)) {
    f.report('license.url', `\`license.url\` "${url}" is not an absolute http(s) URL.`, `Link the license text, e.g. ${LICENSE_EXAMPLE}`);
    ok = false;
  }
  return ok ? { name: name!, url: url! } : undefined;
}

export function readAiPreferences(f: Fields): AiPreferences | null | undefined {
  const map = f.map('ai_preferences', '{ search: yes, ai_input: yes, ai_train: no }', false);
  if (!map) return map === undefined && f.has('ai_preferences') ? undefined : null;
  let ok = unknownKeys(f, 'ai_preferences', map, AI_PREFERENCE_KEYS);
  const out: AiPreferences = {};
  for (const key of AI_PREFERENCE_KEYS) {
    const v = map[key];
    if (v === undefined || v === null) continue;
    // YAML 1.1 readers take yes/no as booleans; accept both spellings.
    const value: Preference | null = v === 'yes' || v === true ? 'yes' : v === 'no' || v === false ? 'no' : null;
    if (value) out[key] = value;
    else {
      f.report(`ai_preferences.${key}`, `\`ai_preferences.${key}\` is ${JSON.stringify(v)}, which is not yes or no.`, `Valid values: yes, no. Leave the key out to state nothing, e.g. ${AI_EXAMPLE}`);
      ok = false;
    }
  }
  if (!ok) return undefined;
  return Object.keys(out).length ? out : null;
}

/**
 * `social_image`: "/x.png" is content/static/x.png, "static/x.png" the same
 * path relative to content/. It must be a file under content/static/, which
 * the site serves at the same path (D43).
 */
export function readSocialImage(
  f: Fields,
  siteUrl: string | undefined,
  title: string | undefined,
  fileStart: (contentPath: string) => Uint8Array | null,
): SiteConfig['social_image'] | undefined {
  const given = f.string('social_image', '/social.png', false);
  const alt = f.string('social_image_alt', 'A short description of the image', false);
  if (given === undefined) {
    if (alt !== undefined) f.report('social_image_alt', '`social_image_alt` is set but `social_image` is not.', 'Add social_image: /social.png (a file in content/static/), or remove social_image_alt.');
    return null;
  }
  const relative = given.startsWith('/') ? `static${given}` : given.replace(/^\.\//, '');
  const parts = relative.split('/');
  if (parts[0] !== 'static' || parts.length < 2 || parts.some((p) => p === '..' || p === '' || p === '.') || /[?#\\\s]/.test(relative)) {
    f.report('social_image', `\`social_image\` "${given}" is not a file under content/static/.`, 'Put the image in content/static/ and name it from there, e.g. social_image: /social.png for content/static/social.png.');
    return undefined;
  }
  if (!isCardImage(relative)) {
    f.report('social_image', `\`social_image\` "${given}" is not a PNG, JPEG, GIF, WebP or AVIF image.`, 'Link previews need a raster image, e.g. a 1200×630 PNG or JPEG: social_image: /social.png');
    return undefined;
  }
  const start = fileStart(relative);
  if (!start) {
    f.report('social_image', `\`social_image\` "${given}" does not exist: there is no content/${relative}.`, `Add the file content/${relative}, or correct the path (it is resolved against content/static/).`);
    return undefined;
  }
  // A link preview fetches it by its extension's type: its bytes must be that image, as a body image's are (D44).
  const held = cardImageType(start);
  if (held !== mediaTypeOf(relative)) {
    const name = (type: string) => type.slice('image/'.length).toUpperCase();
    f.report('social_image', `\`social_image\` "${given}" ${held ? `holds ${name(held)} data, not ${name(mediaTypeOf(relative))}` : 'is not an image of the type its name says'}.`, held ? `Rename it to match what it holds, or save it again as ${name(mediaTypeOf(relative))}.` : 'Save the image again from an image editor, as PNG or JPEG for example.');
    return undefined;
  }
  if (!siteUrl) return undefined;
  return { url: `${siteUrl}/${parts.slice(1).map(encodeURIComponent).join('/')}`, alt: alt ?? title ?? '' };
}
