// /robots.txt (D29, RFC 9309): everything is public; the sitemap by absolute URL.
import type { Site } from '../model.js';
import { fairRate } from '../statements.js';

export function robotsTxt(site: Site): string {
  return [
    `# ${site.config.title}: every page, its Markdown twin, the API and the feeds are public.`,
    `# Agents: start at ${site.config.site_url}/llms.txt. Fair use: ${fairRate(site)}.`,
    'User-agent: *',
    'Allow: /',
    '',
    `Sitemap: ${site.config.site_url}/sitemap.xml`,
    '',
  ].join('\n');
}
