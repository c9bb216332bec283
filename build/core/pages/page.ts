// What one page is: its HTML main content and its Markdown twin, built side by
// side from the same model so the two say the same thing (D20, D21).
import type { Html } from './html.js';
import type { JsonLd } from './structured-data.js';

/** The navigation entry a page belongs to (aria-current). */
export type Section = 'home' | 'about' | 'services' | 'blog' | 'projects' | 'developers' | null;

export interface Page {
  /** Canonical page path, e.g. "/blog/bounce-handling". */
  path: string;
  /** The h1, and the first part of <title>. */
  title: string;
  /** One or two sentences for <meta name="description"> and OpenGraph. */
  description: string;
  section: Section;
  /** og:type */
  type: 'website' | 'article' | 'profile';
  /** Everything inside <main>, h1 included. */
  main: Html;
  /** The whole twin (D21), ending in one newline. */
  markdown: string;
  /** Its JSON-LD graph (D49, core/pages/structured-data.ts); a page without one gets a WebPage. */
  data?: JsonLd;
  /** Its own social-card image (D50), e.g. a post's first image; else the site's. */
  image?: { url: string; alt: string } | null;
}
