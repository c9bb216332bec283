// site.yaml (D2): the site's title, address and language, the API lifecycle
// (D19), and the optional theme, statements and terms, each checked by its own
// module.
import type { SiteConfig } from '../core/model.js';
import { Fields } from './fields.js';
import type { Parsed } from './frontmatter.js';
import type { Problem } from './problems.js';
import { readTheme } from './theme.js';
import { readAiPreferences, readLicense, readSocialImage, SITE_TERM_FIELDS } from './site-terms.js';
import { readStatements, STATEMENT_FIELDS } from './statements.js';

export const SITE_FIELDS = ['title', 'description', 'site_url', 'language', 'api', 'theme', ...STATEMENT_FIELDS, ...SITE_TERM_FIELDS] as const;

export interface ApiVersionConfig {
  version: string;
  deprecated: string | null;
  sunset: string | null;
  successor: string | null;
}

/** An absolute http(s) URL without a trailing slash: what site_url and --site-url take. */
export function isSiteUrl(url: string): boolean {
  return /^https?:\/\/[^/\s]+(\/[^\s]*[^/\s])?$/.test(url);
}

/**
 * Whether a site URL is a placeholder no site lives at: the domains kept for
 * examples (RFC 2606), which `folio init`'s starter uses. The sample's and
 * the tests' `.example` names are not taken for one: they say so by their name.
 */
export function isPlaceholderUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/\.$/, '');
  } catch {
    return false;
  }
  return /(^|\.)example\.(com|net|org)$/.test(host);
}

/**
 * `fileStart` gives the first bytes of a file by its path relative to the
 * content folder (for social_image); `themeCss` is content/theme.css (D46).
 */
export function readSiteConfig(doc: Parsed, problems: Problem[], siteUrlOverride?: string, fileStart: (contentPath: string) => Uint8Array | null = () => null, themeCss: string | null = null): { config: SiteConfig; versions: ApiVersionConfig[]; warnings: Problem[] } | null {
  const before = problems.length;
  const f = new Fields(doc, 'site.yaml', SITE_FIELDS, problems);
  const title = f.string('title', 'Ada Example — platform consulting');
  const description = f.string('description', 'Notes and consulting by Ada Example.');
  const language = f.string('language', 'en');
  // The pages' lang, the feeds' xml:lang and the structured data's inLanguage: a BCP 47 tag (en, en-GB, pt-BR, zh-Hant).
  if (language !== undefined && !/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(language))
    f.report('language', `\`language\` "${language}" is not a language tag.`, 'Write a BCP 47 tag, e.g. language: en, or en-GB, de, fr-CA.');
  const siteUrl = siteUrlOverride ?? f.string('site_url', 'https://ada.example');
  if (siteUrl && !isSiteUrl(siteUrl)) {
    if (siteUrlOverride) problems.push({ file: '--site-url', line: 1, column: 1, message: `"${siteUrl}" is not an absolute URL without a trailing slash.`, hint: 'Pass e.g. --site-url https://ada.example' });
    else f.report('site_url', `\`site_url\` "${siteUrl}" is not an absolute URL without a trailing slash.`, 'Write it as site_url: https://ada.example');
  } else if (siteUrl && isPlaceholderUrl(siteUrl)) {
    // Said, not silent: every absolute address the site publishes would point at it.
    const message = `${siteUrl} is a placeholder, and the canonical links, the sitemap, the feeds, llms.txt and every API and MCP address would point there.`;
    if (siteUrlOverride) f.warnings.push({ file: '--site-url', line: 1, column: 1, message, hint: 'Pass the address the site is served at, e.g. --site-url https://preview.ada.consulting' });
    else f.warn('site_url', `\`site_url\` ${message}`, 'Set it to the address the site will live at, with no trailing slash, e.g. site_url: https://ada.consulting');
  }
  const versions = readVersions(f);
  const statements = readStatements(f);
  const license = readLicense(f);
  const aiPreferences = readAiPreferences(f);
  const socialImage = readSocialImage(f, siteUrl, title, fileStart);
  const theme = readTheme(f, themeCss);
  // site.yaml has no free fields, so a near miss is a typo that would silently drop, say, the disclaimer.
  f.misspelt();
  if (problems.length > before) return null;
  return {
    config: { title: title!, description: description!, site_url: siteUrl!, language: language!, statements: statements!, license: license!, ai_preferences: aiPreferences!, social_image: socialImage!, theme: theme! },
    versions: versions!,
    warnings: f.warnings,
  };
}

const DAY = 86_400_000;

function readVersions(f: Fields): ApiVersionConfig[] | undefined {
  const api = f.map('api', '{ versions: { v1: { deprecated: 2027-01-01, sunset: 2027-07-01, successor: v2 } } }', false);
  const raw = (api?.versions ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    f.report('api', '`api.versions` must be a map keyed by version (v1, v2, …).', 'Write api: { versions: { v1: { deprecated: 2027-01-01, sunset: 2027-07-01, successor: v2 } } }');
    return undefined;
  }
  const out: ApiVersionConfig[] = [];
  for (const [version, value] of Object.entries({ v1: {}, ...raw })) {
    const v = (value ?? {}) as Record<string, unknown>;
    const date = (key: string) => {
      const d = v[key] instanceof Date ? (v[key] as Date).toISOString().slice(0, 10) : v[key];
      if (d === undefined || d === null) return null;
      if (typeof d !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(d))) {
        f.report('api', `\`api.versions.${version}.${key}\` is not a date: ${JSON.stringify(d)}.`, `Write it as ${key}: 2027-01-01`);
        return null;
      }
      return d;
    };
    const deprecated = date('deprecated');
    const sunset = date('sunset');
    if (sunset && !deprecated) f.report('api', `\`api.versions.${version}\` has a sunset but no deprecated date.`, 'A version is deprecated before it is retired: add deprecated, at least 180 days before sunset.');
    if (deprecated && sunset && Date.parse(sunset) - Date.parse(deprecated) < 180 * DAY) {
      f.report('api', `\`api.versions.${version}.sunset\` (${sunset}) is less than 180 days after deprecated (${deprecated}).`, `Set sunset to ${new Date(Date.parse(deprecated) + 180 * DAY).toISOString().slice(0, 10)} or later (D19).`);
    }
    out.push({ version, deprecated, sunset, successor: typeof v.successor === 'string' ? v.successor : null });
  }
  return out;
}
