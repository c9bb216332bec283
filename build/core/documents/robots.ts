// /robots.txt (D29, RFC 9309): everything is public; the sitemap by absolute
// URL. With site.yaml's ai_preferences (D52), the same group states them in
// both conventions: Cloudflare's Content Signals (with the policy text its
// Content Signals Policy prescribes above the group) and the IETF AI
// Preferences `Content-Usage` rule (draft-ietf-aipref-attach).
import { contentUsage } from '../headers.js';
import type { AiPreferences, Site } from '../model.js';
import { fairRate } from '../statements.js';

/** The Content Signals Policy's terms, as contentsignals.org words them; the signals are its keys. */
export const CONTENT_SIGNALS_POLICY = [
  'As a condition of accessing this website, you agree to',
  'abide by the following content signals:',
  '',
  '(a)  If a content-signal = yes, you may collect content',
  'for the corresponding use.',
  '(b)  If a content-signal = no, you may not collect content',
  'for the corresponding use.',
  '(c)  If the website operator does not include a content',
  'signal for a corresponding use, the website operator',
  'neither grants nor restricts permission via content signal',
  'with respect to the corresponding use.',
  '',
  'The content signals and their meanings are:',
  '',
  'search: building a search index and providing search',
  'results (e.g., returning hyperlinks and short excerpts',
  "from your website's contents).  Search does not include",
  'providing AI-generated search summaries.',
  'ai-input: inputting content into one or more AI models',
  '(e.g., retrieval augmented generation, grounding, or other',
  'real-time taking of content for generative AI search',
  'answers).',
  'ai-train: training or fine-tuning AI models.',
  '',
  'ANY RESTRICTIONS EXPRESSED VIA CONTENT SIGNALS ARE EXPRESS',
  'RESERVATIONS OF RIGHTS UNDER ARTICLE 4 OF THE EUROPEAN',
  'UNION DIRECTIVE 2019/790 ON COPYRIGHT AND RELATED RIGHTS',
  'IN THE DIGITAL SINGLE MARKET.',
];

const SIGNALS = { search: 'search', ai_input: 'ai-input', ai_train: 'ai-train' } as const;

/** `search=yes, ai-input=yes, ai-train=no`: only the signals the author states. */
export function contentSignal(prefs: AiPreferences | null | undefined): string | null {
  const parts = Object.entries(SIGNALS).flatMap(([key, signal]) => {
    const v = prefs?.[key as keyof AiPreferences];
    return v ? [`${signal}=${v}`] : [];
  });
  return parts.length ? parts.join(', ') : null;
}

export function robotsTxt(site: Site): string {
  const signal = contentSignal(site.config.ai_preferences);
  const usage = contentUsage(site.config.ai_preferences);
  return [
    // One comment line whatever the title holds: a line break would start a directive (Disallow: /).
    `# ${site.config.title.replace(/[\r\n\u2028\u2029]+/g, ' ')}: every page, its Markdown twin, the API and the feeds are public.`,
    `# Agents: start at ${site.config.site_url}/llms.txt. Fair use: ${fairRate(site)}.`,
    ...(signal ? ['#', ...CONTENT_SIGNALS_POLICY.map((line) => (line ? `# ${line}` : '#'))] : []),
    '',
    'User-agent: *',
    ...(signal ? [`Content-Signal: ${signal}`] : []),
    ...(usage ? [`Content-Usage: ${usage}`] : []),
    'Allow: /',
    '',
    `Sitemap: ${site.config.site_url}/sitemap.xml`,
    '',
  ].join('\n');
}
