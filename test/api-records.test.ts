// The JSON API's records over a real `folio serve` on 127.0.0.1: discovery,
// the profile, the services and the projects, with their filters and 404s
// (D2, D4, D5, D7, D10, D13, D47).
import { describe, expect, it } from 'vitest';
import { apiServer, BASE, expectApiHeaders, expectError, expectSchema, SITE } from './helpers/api.js';

const { get, json } = apiServer();

describe('discovery (D7)', () => {
  it('lists every operation (D7) with absolute URLs and parameters', async () => {
    const { res, body } = await json('/api/v1');
    expect(res.status).toBe(200);
    expectApiHeaders(res);
    expectSchema('Discovery', body);
    expect(body).toMatchObject({
      version: 'v1',
      status: 'current',
      documentation_url: `${SITE}/developers`,
      openapi_url: `${SITE}/openapi.json`,
      mcp_url: `${SITE}/mcp`,
    });
    const ids = body.endpoints.map((e: any) => e.operationId);
    expect(ids).toEqual([
      'getApiIndex',
      'getProfile',
      'listServices',
      'getService',
      'listPosts',
      'getPost',
      'listProjects',
      'getProject',
      'getAvailability',
      'listChanges',
      'searchContent',
    ]);
    const posts = body.endpoints.find((e: any) => e.operationId === 'listPosts');
    expect(posts).toMatchObject({ method: 'GET', path: '/api/v1/posts', url: `${BASE}/posts` });
    expect(posts.parameters.map((p: any) => p.name)).toEqual(['tag', 'limit', 'offset']);
    const search = body.endpoints.find((e: any) => e.operationId === 'searchContent');
    expect(search.parameters.find((p: any) => p.name === 'q').required).toBe(true);
  });
});

describe('profile and services', () => {
  it('returns the profile object at the top level with its links (D4, D5)', async () => {
    const { res, body } = await json('/api/v1/profile');
    expect(res.status).toBe(200);
    expectSchema('Profile', body);
    expect(body.name).toBe('Hanna Brink');
    expect(body.contact.email).toBe('hello@hannabrink.example');
    expect(body).toMatchObject({ url: `${SITE}/about`, markdown_url: `${SITE}/about.md`, api_url: `${BASE}/profile` });
    // A front-matter field the contract does not name passes through (D2).
    expect(body.languages).toBeDefined();
  });

  it('lists the services in data, in their order, each with url, markdown_url and api_url', async () => {
    const { body } = await json('/api/v1/services');
    expectSchema('ServiceList', body);
    expect(body.data.length).toBeGreaterThanOrEqual(4);
    expect(body.meta.total).toBe(body.data.length);
    const orders = body.data.map((x: any) => x.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    for (const svc of body.data) {
      expect(svc.url).toBe(`${SITE}/services/${svc.id}`);
      expect(svc.markdown_url).toBe(`${SITE}/services/${svc.id}.md`);
      expect(svc.api_url).toBe(`${BASE}/services/${svc.id}`);
    }
  });

  it('answers each service at its api_url (getService, D47), and an unknown id with 404 and a hint to the list', async () => {
    const { body: list } = await json('/api/v1/services');
    for (const item of list.data) {
      const { res, body } = await json(item.api_url.slice(SITE.length));
      expect(res.status).toBe(200);
      expectApiHeaders(res);
      expectSchema('Service', body);
      expect(body).toEqual(item);
      // Its page and twin exist where the links say.
      expect((await get(item.url.slice(SITE.length))).status).toBe(200);
      const twin = await get(item.markdown_url.slice(SITE.length));
      expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await twin.text()).toContain(`# ${item.title}`);
    }
    const error = await expectError(await get('/api/v1/services/nope'), 404, 'not_found');
    expect(error.hint).toContain(`${BASE}/services`);
  });
});

describe('projects (D10)', () => {
  it('filters by each status', async () => {
    const { body: all } = await json('/api/v1/projects');
    expectSchema('ProjectList', all);
    let sum = 0;
    for (const status of ['live', 'sunset', 'delivered']) {
      const { body } = await json(`/api/v1/projects?status=${status}`);
      expectSchema('ProjectList', body);
      expect(body.data.length).toBeGreaterThanOrEqual(2);
      for (const p of body.data) expect(p.status).toBe(status);
      expect(body.meta).toEqual({ total: body.data.length, status });
      expect(body.links.self).toBe(`${BASE}/projects?status=${status}`);
      sum += body.data.length;
    }
    expect(sum).toBe(all.data.length);
  });

  it.each(['archived', 'LIVE', '', 'live&status=sunset'])('rejects status=%s with 400 listing the three values', async (value) => {
    const error = await expectError(await get(`/api/v1/projects?status=${value}`), 400, 'invalid_request');
    expect(error.hint).toContain('live, sunset, delivered');
  });

  it('returns one project, and 404 with a hint at the list for an unknown id (D13)', async () => {
    const { body } = await json('/api/v1/projects/bouncedesk');
    expectSchema('Project', body);
    expect(body).toMatchObject({
      id: 'bouncedesk',
      status: 'live',
      url: `${SITE}/projects/bouncedesk`,
      api_url: `${BASE}/projects/bouncedesk`,
    });
    const error = await expectError(await get('/api/v1/projects/nope'), 404, 'not_found');
    expect(error.hint).toContain(`${BASE}/projects`);
  });
});
