// JSON Schemas (2020-12) of every API response, written once. The OpenAPI
// description (D25) and the MCP tools' outputSchema (D37) both read them,
// and the tests validate real responses against them with Ajv. One module past
// 300 lines on purpose: OpenAPI's components are its exports, in this order,
// and the records share their property blocks (links, nullable, paging).
import { ERROR_STATUS } from './errors.js';
import { PROJECT_STATUSES } from './model.js';

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const uri: Schema = { type: 'string', format: 'uri' };
const date: Schema = { type: 'string', format: 'date' };
/**
 * A value or null, as `anyOf` branches of one `type` each: a `type` array is
 * valid JSON Schema, but clients that map tool schemas onto a single-type
 * dialect reject it (the MCP Inspector's --strict check warns on it).
 */
const nullable = (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] });
const strings: Schema = { type: 'array', items: str };

/** An object whose listed properties are all required; other fields may pass through (D2). */
function record(properties: Record<string, Schema>, description: string, open = true): Schema {
  return { type: 'object', description, properties, required: Object.keys(properties), additionalProperties: open };
}

const links = {
  url: { ...uri, description: 'The HTML page.' },
  markdown_url: { ...uri, description: 'The Markdown twin of the page.' },
  api_url: { ...uri, description: 'This record in the JSON API.' },
};

const postItemProps = {
  slug: { ...str, pattern: '^[a-z0-9][a-z0-9-]*$' },
  title: str,
  summary: str,
  date,
  updated: nullable(date),
  tags: { type: 'array', items: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' } },
  reading_time_minutes: { type: 'integer', minimum: 1 },
  ...links,
};

const projectItemProps = {
  id: { ...str, pattern: '^[a-z0-9][a-z0-9-]*$' },
  title: str,
  status: { type: 'string', enum: [...PROJECT_STATUSES] },
  summary: str,
  website: nullable(uri),
  started: nullable(str),
  ended: nullable(str),
  tags: strings,
  ...links,
};

export const PostItem = record(postItemProps, 'A published post, without its body.');
export const Post = record(
  { ...postItemProps, content_markdown: { ...str, description: 'The full Markdown body.' } },
  'A published post with its full Markdown body.',
);
export const ProjectItem = record(projectItemProps, 'A project.');
export const Project = record({ ...projectItemProps, content_markdown: str }, 'A project with its Markdown description.');

export const Service = record(
  { id: str, title: str, summary: str, best_fit: strings, order: { type: 'integer' }, content_markdown: str, ...links },
  'A consulting area and the engagements it fits best.',
);

const selfLinks = record({ self: uri }, 'Links of this answer.', false);
const pageLinks = record(
  { self: uri, next: nullable(uri), prev: nullable(uri) },
  'Absolute links to this page and its neighbours; null at either end.',
  false,
);

const engagement = record({ service: str, formats: strings, rate_band: nullable(str) }, 'An engagement on offer for one service.', false);

export const Availability = record(
  {
    status: str,
    note: str,
    from: nullable(date),
    days_per_week: nullable({ type: 'number', minimum: 0.5, maximum: 7 }),
    lead_time_weeks: nullable({ type: 'number', minimum: 0 }),
    booking_url: nullable(uri),
    as_of: { ...date, description: 'The day of the build the state below was computed on.' },
    earliest_start: { ...nullable(date), description: 'The first day new work could start; null when no new work is taken.' },
    horizon: record({ from: str, to: str }, 'The months (YYYY-MM) the statement covers; questions outside it are refused.', false),
    engagements: {
      type: 'array',
      items: record(
        { service: str, formats: strings, rate_band: nullable(str), title: str, api_url: uri },
        'An engagement on offer, with its service.',
        false,
      ),
    },
    check: {
      description: 'The answer to `service` and/or `month`; null when neither is asked.',
      ...nullable({
        type: 'object',
        properties: {
          service: nullable(str),
          month: nullable(str),
          fits: { type: 'boolean' },
          starts: nullable(date),
          formats: strings,
          rate_band: nullable(str),
          answer: str,
        },
        required: ['service', 'month', 'fits', 'starts', 'formats', 'rate_band', 'answer'],
        additionalProperties: false,
      }),
    },
    ...links,
  },
  'Availability and engagement terms (D60).',
  false,
);

/** The paging of a list (D8): how many match, and the limit and offset applied. */
const paging: Record<string, Schema> = {
  total: { type: 'integer', minimum: 0 },
  limit: { type: 'integer', minimum: 1, maximum: 100 },
  offset: { type: 'integer', minimum: 0 },
};

const change = record(
  {
    type: { type: 'string', enum: ['post', 'project', 'service'] },
    id: str,
    title: str,
    change: { type: 'string', enum: ['added', 'updated', 'removed'] },
    date,
    api_url: { ...uri, description: 'The record in the API (a removed one answers 404, or 301 when it has a new address).' },
  },
  'One addition, update or removal.',
  false,
);

export const ChangeList = record(
  {
    data: { type: 'array', items: change },
    meta: record(
      {
        ...paging,
        since: nullable(date),
        tracked_since: {
          ...date,
          description:
            'Removals are known from this day on: the day of the first build that kept a record. When it is the day of this build, there was no record of a previous one, and no removal can be listed.',
        },
      },
      'Paging, the filter applied, and since when removals are known.',
      false,
    ),
    links: pageLinks,
  },
  'Changes, newest first.',
  false,
);

export const Profile = record(
  {
    name: str,
    headline: str,
    location: str,
    expertise: strings,
    availability: record(
      {
        status: str,
        note: str,
        from: nullable(date),
        days_per_week: nullable({ type: 'number', minimum: 0.5, maximum: 7 }),
        lead_time_weeks: nullable({ type: 'number', minimum: 0 }),
        engagements: { type: 'array', items: engagement },
        booking_url: nullable(uri),
        horizon_months: { type: 'integer', minimum: 1, maximum: 24 },
      },
      'Whether new engagements can start, and when; GET /availability adds the state on the day of the build.',
    ),
    contact: {
      type: 'object',
      description: 'Contact routes; `email` always, others as published.',
      properties: { email: { type: 'string', format: 'email' } },
      required: ['email'],
      additionalProperties: { type: 'string' },
    },
    bio_markdown: str,
    photo_url: { ...nullable(uri), description: 'Absolute URL of the profile photo (the fingerprinted original), or null.' },
    photo_alt: { ...nullable(str), description: 'What the photo shows, or null without a photo.' },
    ...links,
  },
  'Identity, expertise, availability and contact.',
);

export const PostList = record(
  {
    data: { type: 'array', items: PostItem },
    meta: record(
      {
        ...paging,
        tag: nullable(str),
      },
      'Paging: total matching posts, and the limit and offset applied.',
      false,
    ),
    links: pageLinks,
  },
  'One page of the post list.',
  false,
);

export const ServiceList = record(
  {
    data: { type: 'array', items: Service },
    meta: record({ total: { type: 'integer', minimum: 0 } }, 'How many services.', false),
    links: selfLinks,
  },
  'Every consulting service, in the order the consultant gives them.',
  false,
);

export const ProjectList = record(
  {
    data: { type: 'array', items: ProjectItem },
    meta: record(
      { total: { type: 'integer', minimum: 0 }, status: nullable({ type: 'string', enum: [...PROJECT_STATUSES] }) },
      'How many projects match, and the status filter applied.',
      false,
    ),
    links: selfLinks,
  },
  'Projects, optionally filtered by status.',
  false,
);

export const SearchHit = record(
  {
    type: { type: 'string', enum: ['post', 'project', 'service'] },
    id: str,
    title: str,
    summary: str,
    ...links,
    snippet: { ...str, description: 'An excerpt around the match.' },
    score: { type: 'number', description: 'Relevance; higher is better. Results are sorted by it.' },
  },
  'One search result.',
);

export const SearchResults = record(
  {
    data: { type: 'array', items: SearchHit },
    meta: record(
      { total: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 1, maximum: 50 }, query: str },
      'How many results matched, the limit applied and the query as understood.',
      false,
    ),
    links: selfLinks,
  },
  'Relevance-ranked results, highest score first.',
  false,
);

const parameter = record(
  {
    name: str,
    in: { type: 'string', enum: ['query', 'path'] },
    required: { type: 'boolean' },
    description: str,
    schema: { type: 'object' },
  },
  'A parameter of the endpoint.',
  false,
);

export const Discovery = record(
  {
    name: str,
    description: str,
    version: { type: 'string', pattern: '^v[0-9]+$' },
    status: { type: 'string', enum: ['current', 'deprecated'] },
    deprecated: nullable(date),
    sunset: nullable(date),
    successor: nullable(str),
    documentation_url: uri,
    openapi_url: uri,
    mcp_url: uri,
    llms_txt_url: uri,
    authentication: { type: 'string', const: 'none' },
    fair_use: str,
    license: {
      description: 'The license of the writing, as site.yaml states it (D51); null when it states none.',
      anyOf: [record({ name: str, url: uri }, 'A license: its name and the URL of its text.', false), { type: 'null' }],
    },
    endpoints: {
      type: 'array',
      items: record(
        {
          operationId: str,
          method: { type: 'string', const: 'GET' },
          path: str,
          url: { type: 'string', description: 'Absolute URL; a templated path keeps its RFC 6570 {name} variables.' },
          description: str,
          parameters: { type: 'array', items: parameter },
        },
        'One endpoint.',
        false,
      ),
    },
  },
  'The discovery document: every endpoint of this API version.',
);

export const ErrorEnvelope = record(
  {
    error: record(
      {
        code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        status: { type: 'integer', enum: Object.values(ERROR_STATUS) },
        message: str,
        hint: str,
        documentation_url: uri,
        openapi_url: uri,
      },
      'What failed and how to recover.',
      false,
    ),
  },
  'Every failure answers this envelope; error.status equals the HTTP status.',
  false,
);

/** The response schemas by name: OpenAPI's components, and Operation.schema names one of them (a name not here is a type error). */
export const schemas = {
  Discovery,
  Profile,
  ServiceList,
  Service,
  PostList,
  Post,
  ProjectList,
  Project,
  Availability,
  ChangeList,
  SearchResults,
  ErrorEnvelope,
} satisfies Record<string, Schema>;
export type SchemaName = keyof typeof schemas;
