// The site model: everything respond() needs to answer a request.
// It is plain JSON so that the build can hand it to the functions as a file
// (dist/_folio/site.json) without any build-only dependency.

export type ProjectStatus = 'live' | 'sunset' | 'delivered';
export const PROJECT_STATUSES: readonly ProjectStatus[] = ['live', 'sunset', 'delivered'];

/** Front-matter fields the contract does not name; they pass through to the API. */
export type Extra = Record<string, unknown>;

export interface SiteConfig {
  title: string;
  description: string;
  /** Absolute, no trailing slash. */
  site_url: string;
  language: string;
  /** What the site says about itself (D59); every one is the site's own, from site.yaml. */
  statements: SiteStatements;
  /** The license of the writing (D51), when site.yaml states one. */
  license?: License | null;
  /** What AI systems may do with the content (D52); only what the author states. */
  ai_preferences?: AiPreferences | null;
  /** The default social-card image (D50): absolute URL and alt text. */
  social_image?: { url: string; alt: string } | null;
  /** site.yaml `theme` and content/theme.css (D46); absent or all null without a theme. */
  theme?: Theme;
}

export interface Theme {
  /** Hex colours that pass WCAG AA on the page background of their scheme. */
  accent: string | null;
  /** As given, or derived from `accent` for the dark scheme. */
  accent_dark: string | null;
  font: 'sans' | 'serif' | 'mono' | null;
  /** content/theme.css, served after the built-in stylesheet. */
  css: string | null;
}

export interface License {
  name: string;
  /** Absolute http(s) URL of the license text. */
  url: string;
}

export type Preference = 'yes' | 'no';

/** Each key is stated or absent; an absent one is no statement either way (D52). */
export interface AiPreferences {
  search?: Preference;
  ai_input?: Preference;
  ai_train?: Preference;
}

/** The site's statements about itself (D59). A statement the site does not make is null or empty. */
export interface SiteStatements {
  /** What the posts are, as a phrase that completes "The posts are …", e.g. "notes from my consulting work". */
  writing: string | null;
  /** One or more sentences, e.g. "Nothing here is professional advice for your situation." */
  disclaimer: string | null;
  /** The line after the copyright in every page's footer; the disclaimer when not set. */
  footer: string | null;
  /** Sentences saying what the site is not. */
  is_not: string[];
  /** Fair use: the sustained request rate asked of clients (not enforced). */
  fair_use: { requests_per_minute: number; default: boolean };
}

/** One API version's lifecycle, resolved against the build clock (D19). */
export interface VersionState {
  version: string;
  status: 'current' | 'deprecated' | 'sunset';
  /** YYYY-MM-DD, when set. */
  deprecated: string | null;
  sunset: string | null;
  /** The version that replaces this one, e.g. "v2". */
  successor: string | null;
}

/** One kind of engagement the consultant offers for a service (D60). */
export interface Engagement {
  /** A service id. */
  service: string;
  /** e.g. audit, retainer, project. */
  formats: string[];
  rate_band: string | null;
}

/** When new work can start, and on what terms (D60). */
export interface Availability {
  status: string;
  note: string;
  /** YYYY-MM-DD: the first day new work can start. */
  from: string | null;
  days_per_week: number | null;
  lead_time_weeks: number | null;
  engagements: Engagement[];
  booking_url: string | null;
  /** How many months ahead, from the build's month, the statement covers. */
  horizon_months: number;
}

export interface Profile {
  name: string;
  headline: string;
  location: string;
  expertise: string[];
  availability: Availability;
  contact: Record<string, string> & { email: string };
  bio_markdown: string;
  /** Rendered at build time; absent in the runtime copy of the model. */
  bio_html?: string;
  /** Absolute URL of the fingerprinted original of profile.md's `photo` (D45), or null. */
  photo_url: string | null;
  photo_alt: string | null;
  /** The photo's <img> attributes (site-relative src, srcset, width, height), rendered at build time; absent in the runtime copy. */
  photo_attributes?: string;
  extra: Extra;
}

/** A post's first local image (D44): the absolute URL of its fingerprinted original. */
export interface PostImage {
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
}

export interface Service {
  id: string;
  /** Former addresses that answer 301 to this one (D48). */
  aliases: string[];
  title: string;
  summary: string;
  best_fit: string[];
  order: number;
  body_markdown: string;
  body_html?: string;
  extra: Extra;
}

export interface Post {
  slug: string;
  aliases: string[];
  title: string;
  /** YYYY-MM-DD */
  date: string;
  updated: string | null;
  tags: string[];
  summary: string;
  reading_time_minutes: number;
  content_markdown: string;
  /** Plain text of the body, for search. */
  text: string;
  html?: string;
  /** The first local raster image of the body (PNG, JPEG, GIF, WebP, AVIF; no SVG), or null (D44; the social image of D50 reads it). */
  image: PostImage | null;
  extra: Extra;
}

export interface Project {
  id: string;
  aliases: string[];
  title: string;
  status: ProjectStatus;
  summary: string;
  url: string | null;
  started: string | null;
  ended: string | null;
  tags: string[];
  body_markdown: string;
  text: string;
  html?: string;
  extra: Extra;
}

export interface TagCount {
  tag: string;
  count: number;
}

export type ChangeType = 'post' | 'project' | 'service';

/** One addition, update or removal, for agents that come back (D61). */
export interface Change {
  type: ChangeType;
  id: string;
  title: string;
  change: 'added' | 'updated' | 'removed';
  /** YYYY-MM-DD */
  date: string;
  api_url: string;
}

export interface ChangeLog {
  /** Newest first; ties by type, then id. */
  entries: Change[];
  /** YYYY-MM-DD: removals are known from this day on, the day of the first build of the record; a build with no previous record starts it on its own day. */
  tracked_since: string;
}

export interface Site {
  config: SiteConfig;
  /** Keyed by version ("v1"); the route table is keyed the same way. */
  versions: Record<string, VersionState>;
  profile: Profile;
  /** Sorted by order, then id. */
  services: Service[];
  /** Published posts only, newest date first, ties by slug ascending (D6). */
  posts: Post[];
  /** Sorted by status (live, delivered, sunset), then started descending, then id. */
  projects: Project[];
  /** Every tag of a published post, by name. */
  tags: TagCount[];
  /** Files of content/static/, served at their own path (D43). */
  static: StaticFile[];
  /** Site path → the path it answers 301 to (D48): each alias, its .md form, and former API addresses. */
  redirects: Record<string, string>;
  /** ISO-8601 build clock. */
  built_at: string;
  /** What was added, updated and removed (D61). */
  changes: ChangeLog;
}

export interface StaticFile {
  /** Site path, e.g. "/favicon.ico". */
  path: string;
  content_type: string;
  size: number;
  sha256: string;
}
