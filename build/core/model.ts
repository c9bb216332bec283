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

export interface Profile {
  name: string;
  headline: string;
  location: string;
  expertise: string[];
  availability: { status: string; note: string };
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
  /** The first local image of the body, or null (D44; the social image of D50 reads it). */
  image: PostImage | null;
  extra: Extra;
}

export interface Project {
  id: string;
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
  /** ISO-8601 build clock. */
  built_at: string;
}
