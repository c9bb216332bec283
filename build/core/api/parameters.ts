// The parameters of the v1 operations, declared once (D7, D8): the
// validator, the discovery document, OpenAPI and the MCP input schemas read them.
import { PROJECT_STATUSES } from '../model.js';
import type { ParamSpec } from '../params.js';
import { slugify } from '../params.js';

export const LIMIT: ParamSpec = {
  name: 'limit',
  in: 'query',
  required: false,
  description: 'How many posts to return.',
  schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  example: 20,
};

export const OFFSET: ParamSpec = {
  name: 'offset',
  in: 'query',
  required: false,
  description: 'How many posts to skip, for paging.',
  // The largest integer every JSON client holds exactly: meta.offset and the links repeat it.
  schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 },
  example: 20,
};

export const TAG: ParamSpec = {
  name: 'tag',
  in: 'query',
  required: false,
  description: 'Only posts carrying this tag (a lowercase slug; the value is normalised the same way).',
  schema: { type: 'string', maxLength: 100 },
  example: 'notes',
  normalise: slugify,
};

export const STATUS: ParamSpec = {
  name: 'status',
  in: 'query',
  required: false,
  description: 'Only projects in this status.',
  schema: { type: 'string', enum: PROJECT_STATUSES },
  example: 'live',
};

export const QUERY: ParamSpec = {
  name: 'q',
  in: 'query',
  required: true,
  description: 'What to search for: words from titles, summaries, tags or bodies. One typo per word is tolerated.',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
  example: 'migration',
};

export const SEARCH_LIMIT: ParamSpec = {
  name: 'limit',
  in: 'query',
  required: false,
  description: 'How many results to return.',
  schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
  example: 10,
};

export const SLUG: ParamSpec = {
  name: 'slug',
  in: 'path',
  required: true,
  description: 'The post slug, as listed in `data[].slug` of the post list.',
  schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
  example: 'hello-world',
};

export const PROJECT_ID: ParamSpec = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The project id, as listed in `data[].id` of the project list.',
  schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
  example: 'my-project',
};

export const SERVICE_ID: ParamSpec = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The service id, as listed in `data[].id` of the service list.',
  schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
  example: 'my-service',
};

export const SERVICE: ParamSpec = {
  name: 'service',
  in: 'query',
  required: false,
  description: 'Ask whether new work on this service fits: a service id, as listed in `data[].id` of the service list.',
  schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 100 },
  example: 'my-service',
};

export const MONTH: ParamSpec = {
  name: 'month',
  in: 'query',
  required: false,
  description: 'Ask whether new work can start in this month (YYYY-MM), within the published horizon.',
  schema: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' },
  example: '2027-01',
};

export const SINCE: ParamSpec = {
  name: 'since',
  in: 'query',
  required: false,
  description: 'Only changes on or after this day (YYYY-MM-DD).',
  schema: { type: 'string', format: 'date' },
  example: '2026-11-01',
};
