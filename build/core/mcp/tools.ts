// The MCP tools of D37 and D60, as data. The input schemas are derived from the
// API's parameter declarations and the output schemas are the API's response
// schemas, so a tool and its endpoint cannot drift apart. The developer page
// lists the tools from this table.
import { LIMIT, MONTH, OFFSET, SEARCH_LIMIT, SERVICE, SLUG, STATUS, TAG, QUERY } from '../api/parameters.js';
import type { ParamSpec } from '../params.js';
import { Availability, Post, PostList, Profile, ProjectList, SearchResults } from '../schemas.js';

type Schema = Record<string, unknown>;

export interface ToolAnnotations {
  readOnlyHint: true;
  idempotentHint: true;
  openWorldHint: false;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: Schema & { type: 'object' };
  outputSchema: Schema;
  annotations: ToolAnnotations;
  /** The API operation whose response the tool returns as structuredContent. */
  operationId: string;
  /** Tool argument name → the API parameter it fills. */
  params: Readonly<Record<string, ParamSpec>>;
}

const annotations: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

/** One JSON Schema property from a parameter declaration (bounds, enum, default, example). */
function property(spec: ParamSpec): Schema {
  const { default: dflt, ...rest } = spec.schema as Schema & { default?: unknown };
  const schema: Schema = { ...rest, description: spec.description };
  if (rest.enum) schema.enum = [...(rest.enum as readonly string[])];
  if (dflt !== undefined) schema.default = dflt;
  if (spec.example !== undefined) schema.examples = [spec.example];
  return schema;
}

function input(params: Record<string, ParamSpec>): Schema & { type: 'object' } {
  const properties = Object.fromEntries(Object.entries(params).map(([name, spec]) => [name, property(spec)]));
  const required = Object.entries(params)
    .filter(([, spec]) => spec.required)
    .map(([name]) => name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function tool(
  name: string,
  title: string,
  description: string,
  operationId: string,
  params: Record<string, ParamSpec>,
  outputSchema: Schema,
): ToolSpec {
  return { name, title, description, inputSchema: input(params), outputSchema, annotations, operationId, params };
}

export const tools: readonly ToolSpec[] = [
  tool(
    'site_get_profile',
    'Get the profile',
    'Identity, headline, location, expertise, current availability and contact routes (email and others) of the consultant who publishes this site; the text block is the about page in Markdown. Same as GET /api/v1/profile.',
    'getProfile',
    {},
    Profile,
  ),
  tool(
    'site_list_posts',
    'List posts',
    'Published posts, newest first, without their bodies: slug, title, summary, date, tags, reading time and links. Filter with `tag`, page with `limit` and `offset`. Same as GET /api/v1/posts.',
    'listPosts',
    { tag: TAG, limit: LIMIT, offset: OFFSET },
    PostList,
  ),
  tool(
    'site_get_post',
    'Get one post',
    "One post with its full Markdown body in `content_markdown`; the text block is the post's Markdown page: title, author, dates, tags, links, then the body. Slugs are listed by site_list_posts; a former slug answers the post under its current one. Same as GET /api/v1/posts/{slug}.",
    'getPost',
    { slug: SLUG },
    Post,
  ),
  tool(
    'site_search_writing',
    'Search the site',
    'Relevance-ranked search over posts, projects and services, with a snippet of each match. Title matches rank above body matches; one typo per word is tolerated. Same as GET /api/v1/search?q=….',
    'searchContent',
    { query: QUERY, limit: SEARCH_LIMIT },
    SearchResults,
  ),
  tool(
    'site_list_projects',
    'List projects',
    'Projects with their status (live, sunset or delivered), summary, dates, tags and links; filter with `status`. Same as GET /api/v1/projects.',
    'listProjects',
    { status: STATUS },
    ProjectList,
  ),
  tool(
    'site_check_availability',
    'Check availability',
    'Whether the consultant can take new work: the earliest start, days a week, lead time, engagements on offer per service (formats, rate band) and where to book. Give `service` and/or `month` (YYYY-MM, within the published horizon) to get `check`, a yes or no with the first possible start. Same as GET /api/v1/availability.',
    'getAvailability',
    { service: SERVICE, month: MONTH },
    Availability,
  ),
];
