// The v1 operations (D7), as data plus a handler each; what an operation is
// is in operation.ts, their parameters in parameters.ts. The discovery
// document, the OpenAPI description and the build's enumeration read this table.
import { PROJECT_STATUSES, type Site } from '../model.js';
import { LIMIT, MONTH, OFFSET, PROJECT_ID, QUERY, SEARCH_LIMIT, SERVICE, SERVICE_ID, SINCE, SLUG, STATUS, TAG } from './parameters.js';
import { profileResource, projectItem, serviceResource } from '../resources.js';
import { fairRate } from '../statements.js';
import { apiBase } from '../urls.js';
import { availabilityResource, checkFit } from '../availability.js';
import { availabilityTargets, page, pageHolding, pages } from './lists.js';
import type { Operation } from './operation.js';

export const operations: readonly Operation[] = [
  {
    operationId: 'getApiIndex',
    path: '',
    summary: 'Discovery document',
    description: 'Lists every endpoint of this API version with its parameters.',
    parameters: [],
    schema: 'Discovery',
    errors: [],
    enumerate: (_site, base) => [base],
    handle: (ctx) => ({ body: discovery(ctx.site, ctx.version) }),
  },
  {
    operationId: 'getProfile',
    path: '/profile',
    summary: 'Profile and contact',
    description: 'Identity, expertise, availability and contact routes of the consultant.',
    parameters: [],
    schema: 'Profile',
    errors: [],
    enumerate: (_site, base) => [`${base}/profile`],
    handle: (ctx) => ({ body: profileResource(ctx.site, ctx.site.profile) }),
  },
  {
    operationId: 'listServices',
    path: '/services',
    summary: 'Consulting services',
    description: 'Consulting areas, each with the engagements it fits best.',
    parameters: [],
    schema: 'ServiceList',
    errors: [],
    enumerate: (_site, base) => [`${base}/services`],
    handle: (ctx) => ({
      body: {
        data: ctx.site.services.map((s) => serviceResource(ctx.site, s)),
        meta: { total: ctx.site.services.length },
        links: { self: ctx.self('') },
      },
    }),
  },
  {
    operationId: 'getService',
    path: '/services/{id}',
    summary: 'One service',
    description: 'One consulting service, including its Markdown description in `content_markdown`.',
    parameters: [SERVICE_ID],
    schema: 'Service',
    errors: ['not_found'],
    moves: true,
    enumerate: (site, base) => site.services.map((s) => `${base}/services/${s.id}`),
    handle: (ctx) => {
      const service = ctx.site.services.find((s) => s.id === ctx.pathParams.id);
      if (!service) {
        return {
          error: 'not_found',
          message: `There is no service with the id "${ctx.pathParams.id}".`,
          hint: `The service list at ${apiBase(ctx.site, ctx.version)}/services gives every valid id in data[].id.`,
        };
      }
      return { body: serviceResource(ctx.site, service) };
    },
  },
  {
    operationId: 'listPosts',
    path: '/posts',
    summary: 'Published posts',
    description: 'Published writing, newest first (ties by slug), optionally filtered by tag and paged with limit and offset.',
    parameters: [TAG, LIMIT, OFFSET],
    schema: 'PostList',
    errors: ['invalid_request'],
    // Every default page of the post list, overall and per tag.
    enumerate: (site, base) => [
      ...pages(`${base}/posts`, site.posts.length, ''),
      ...site.tags.flatMap(({ tag, count }) => pages(`${base}/posts`, count, `tag=${tag}`)),
    ],
    // A post is on the page of the whole list its place falls in, and on one page of each of its tags' lists.
    showing: (model, base, posts) =>
      posts.flatMap((at) => [
        pageHolding(`${base}/posts`, at, ''),
        ...model.site.posts[at]!.tags.map((tag) => pageHolding(`${base}/posts`, model.posts.byTag.get(tag)!.indexOf(at), `tag=${tag}`)),
      ]),
    handle: async (ctx) => {
      const tag = ctx.values.tag as string | undefined;
      const [limit, offset] = [ctx.values.limit as number, ctx.values.offset as number];
      const { total, items } = await ctx.runtime.data.posts(tag, offset, limit);
      return { body: page(ctx, items, total, limit, offset, { tag: tag ?? null }) };
    },
  },
  {
    operationId: 'getPost',
    path: '/posts/{slug}',
    summary: 'One post',
    description: 'One published post, including its full Markdown body in `content_markdown`.',
    parameters: [SLUG],
    schema: 'Post',
    errors: ['not_found'],
    moves: true,
    enumerate: (site, base) => site.posts.map((p) => `${base}/posts/${p.slug}`),
    handle: async (ctx) => {
      const post = await ctx.runtime.data.post(ctx.pathParams.slug!, ctx.version);
      if (!post) {
        return {
          error: 'not_found',
          message: `There is no published post with the slug "${ctx.pathParams.slug}".`,
          hint: `The post list at ${apiBase(ctx.site, ctx.version)}/posts gives every valid slug in data[].slug.`,
        };
      }
      return { body: post };
    },
  },
  {
    operationId: 'listProjects',
    path: '/projects',
    summary: 'Projects',
    description: 'Projects, optionally filtered by status (live, sunset or delivered).',
    parameters: [STATUS],
    schema: 'ProjectList',
    errors: ['invalid_request'],
    enumerate: (_site, base) => [`${base}/projects`, ...PROJECT_STATUSES.map((status) => `${base}/projects?status=${status}`)],
    handle: (ctx) => {
      const status = ctx.values.status as string | undefined;
      const projects = status === undefined ? ctx.site.projects : ctx.site.projects.filter((p) => p.status === status);
      return {
        body: {
          data: projects.map((p) => projectItem(ctx.site, p)),
          meta: { total: projects.length, status: status ?? null },
          links: { self: ctx.self(ctx.canonical) },
        },
      };
    },
  },
  {
    operationId: 'getProject',
    path: '/projects/{id}',
    summary: 'One project',
    description: 'One project, including its Markdown description in `content_markdown`.',
    parameters: [PROJECT_ID],
    schema: 'Project',
    errors: ['not_found'],
    moves: true,
    enumerate: (site, base) => site.projects.map((p) => `${base}/projects/${p.id}`),
    handle: async (ctx) => {
      const project = await ctx.runtime.data.project(ctx.pathParams.id!, ctx.version);
      if (!project) {
        return {
          error: 'not_found',
          message: `There is no project with the id "${ctx.pathParams.id}".`,
          hint: `The project list at ${apiBase(ctx.site, ctx.version)}/projects gives every valid id in data[].id.`,
        };
      }
      return { body: project };
    },
  },
  {
    operationId: 'getAvailability',
    path: '/availability',
    summary: 'Availability and engagement terms',
    description:
      'When new work can start, how many days a week, the lead time, the engagements on offer per service and where to book, with the state on the day of the build. With `service` and/or `month`, `check` answers whether that work fits.',
    parameters: [SERVICE, MONTH],
    schema: 'Availability',
    errors: ['invalid_request'],
    // The availability, and every question about it the horizon allows (D60).
    enumerate: (site, base) => availabilityTargets(site, `${base}/availability`),
    handle: (ctx) => {
      const service = ctx.values.service as string | undefined;
      const month = ctx.values.month as string | undefined;
      if (service === undefined && month === undefined) return { body: availabilityResource(ctx.site, null) };
      const fit = checkFit(ctx.site, { service, month });
      if ('hint' in fit) return { error: 'invalid_request', message: fit.message, hint: fit.hint };
      return { body: availabilityResource(ctx.site, fit) };
    },
  },
  {
    operationId: 'listChanges',
    path: '/changes',
    summary: 'What changed',
    description:
      'Additions, updates and removals of posts, projects and services, newest first, paged with limit and offset; `since` keeps the changes on or after a day. Removals are known from `meta.tracked_since` on, the day of the first build that kept a record of what it published.',
    parameters: [
      SINCE,
      { ...LIMIT, description: 'How many changes to return.' },
      { ...OFFSET, description: 'How many changes to skip, for paging.' },
    ],
    schema: 'ChangeList',
    errors: ['invalid_request'],
    // The latest changes; any `since` is answered at request time (D61).
    enumerate: (_site, base) => [`${base}/changes`],
    handle: async (ctx) => {
      const since = ctx.values.since as string | undefined;
      const log = await ctx.runtime.changes();
      // Newest first, so the changes on or after `since` are a prefix.
      const end = since === undefined ? log.entries.length : log.entries.findIndex((c) => c.date < since);
      const entries = end === -1 ? log.entries : log.entries.slice(0, end);
      const [limit, offset] = [ctx.values.limit as number, ctx.values.offset as number];
      return {
        body: page(ctx, entries.slice(offset, offset + limit), entries.length, limit, offset, {
          since: since ?? null,
          tracked_since: log.tracked_since,
        }),
      };
    },
  },
  {
    operationId: 'searchContent',
    path: '/search',
    summary: 'Search',
    description:
      'Relevance-ranked search over posts, projects and services. A title match ranks above a body match; one typo per word is tolerated.',
    parameters: [QUERY, SEARCH_LIMIT],
    schema: 'SearchResults',
    errors: ['invalid_request', 'internal_error'],
    handle: async (ctx) => {
      const q = String(ctx.values.q).trim();
      const limit = ctx.values.limit as number;
      const engine = await ctx.runtime.search();
      const { total, hits } = await engine.search(q, limit);
      return {
        cache: 'computed',
        body: { data: hits, meta: { total, limit, query: q }, links: { self: ctx.self(ctx.canonical) } },
      };
    },
  },
];

/** The discovery document (D7). */
export function discovery(site: Site, version: string) {
  const base = apiBase(site, version);
  const state = site.versions[version]!;
  return {
    name: `${site.config.title} API`,
    description: site.config.description,
    version,
    status: state.status === 'current' ? 'current' : 'deprecated',
    deprecated: state.deprecated,
    sunset: state.sunset,
    successor: state.successor,
    documentation_url: `${site.config.site_url}/developers`,
    openapi_url: `${site.config.site_url}/openapi.json`,
    mcp_url: `${site.config.site_url}/mcp`,
    llms_txt_url: `${site.config.site_url}/llms.txt`,
    authentication: 'none',
    fair_use: `No rate limit is enforced; please stay under ${fairRate(site, 'per minute')}.`,
    license: site.config.license ? { name: site.config.license.name, url: site.config.license.url } : null,
    endpoints: operations.map((op) => ({
      operationId: op.operationId,
      method: 'GET',
      path: `/api/${version}${op.path}`,
      url: `${base}${op.path}`,
      description: op.description,
      parameters: op.parameters.map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required,
        description: p.description,
        schema: p.schema,
      })),
    })),
  };
}
