// The MCP endpoint with the official clients (D36, D37): each connects to a
// real `folio serve` on 127.0.0.1, lists and calls every tool, reads a
// resource, and meets no transport error. Every tool result is compared with
// the API's own answer to the same request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../build/core/mcp/tools.js';
import { ajv } from './helpers/ajv.js';
import { SITE, TOOL_NAMES } from './helpers/mcp.js';
import { BAD_CALLS, CALLS, clientServer, type Connected, FLAVOURS, type Seen, TWINS } from './helpers/mcp-clients.js';

const s = clientServer();

describe.each(FLAVOURS)('$name (D36, D37)', (flavour) => {
  let client: Connected;
  let version: () => string | undefined;
  const seen: Seen[] = [];
  const errors: Error[] = [];

  beforeAll(async () => {
    ({ client, version } = await flavour.connect(new URL('/mcp', s.url), seen, errors));
  });
  afterAll(async () => {
    await client?.close();
  });

  it(`connects on revision ${flavour.revision}`, () => {
    expect(version()).toBe(flavour.revision);
  });

  it('lists the six tools with titles, schemas and read-only annotations', async () => {
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of listed) {
      expect(tool.title, tool.name).toMatch(/\w/);
      expect(tool.description.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      expect(ajv.validateSchema(tool.inputSchema)).toBe(true);
      expect(ajv.validateSchema(tool.outputSchema)).toBe(true);
      expect(tool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    }
    const args = Object.fromEntries(listed.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {})]));
    expect(args).toEqual({
      site_get_profile: [],
      site_list_posts: ['tag', 'limit', 'offset'],
      site_get_post: ['slug'],
      site_search_writing: ['query', 'limit'],
      site_list_projects: ['status'],
      site_check_availability: ['service', 'month'],
    });
    expect(listed.find((t) => t.name === 'site_get_post').inputSchema.required).toEqual(['slug']);
    expect(listed.find((t) => t.name === 'site_search_writing').inputSchema.required).toEqual(['query']);
  });

  it.each(CALLS)('calls $name: structuredContent is the API answer, valid against its outputSchema', async (call) => {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    const expected = await s.api(call.path);
    expect(expected.status).toBe(200);
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual(expected.body);
    const outputSchema = tools.find((t) => t.name === call.name)!.outputSchema;
    expect(ajv.validate(outputSchema, result.structuredContent), JSON.stringify(ajv.errors)).toBe(true);
    const texts = result.content.filter((c: any) => c.type === 'text');
    expect(texts.length).toBe(1);
    // A post's and the profile's text is their Markdown twin, byte for byte (D53); the rest is the API's JSON.
    const twin = TWINS[call.name];
    if (twin) expect(texts[0].text).toBe(await (await fetch(s.at(twin))).text());
    else expect(JSON.parse(texts[0].text)).toEqual(expected.body);
  });

  it.each(CALLS)('$name reads on its own in the text-only view: title, date and URL (D53)', async (call) => {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    // What a client that shows only text blocks shows.
    const view = result.content
      .filter((c: any) => c.type === 'text')
      .map((c: any) => c.text)
      .join('\n');
    if (flavour === FLAVOURS[0])
      console.log(`--- ${call.name} (text only) ---\n${view.length > 1500 ? `${view.slice(0, 1500)}\n…` : view}`);
    const api = result.structuredContent;
    const first = api.data?.[0] ?? api;
    // Each tool's answer has a URL; the title (or name) and the date where it has them.
    expect(first.url).toMatch(/^https:\/\//);
    expect(view).toContain(first.url);
    for (const field of ['title', 'name', 'date', 'as_of'])
      if (typeof first[field] === 'string') expect(view, field).toContain(first[field]);
    if (call.name === 'site_get_post') {
      expect(view.startsWith(`# ${first.title}\n`)).toBe(true);
      expect(view).toMatch(new RegExp(`^- Published: ${first.date}$`, 'm'));
      expect(view).toContain(first.content_markdown.split('\n')[0]);
      // Every link leaves with its host: no site-root link is left for a reader without a base URL.
      expect(view).not.toMatch(/\]\(\/(?!\/)/);
    }
    if (call.name === 'site_get_profile') expect(view).toContain(first.contact.email);
  });

  it('finds the email deliverability post through site_search_writing despite the typo', async () => {
    const result = await client.callTool({ name: 'site_search_writing', arguments: { query: 'deliverabilty' } });
    expect(result.structuredContent.data[0]).toMatchObject({ type: 'post', id: 'email-deliverability-b2b-saas' });
  });

  it("follows a post's former slug to the record the API redirects it to, text block included (D48, D53)", async () => {
    const moved = await fetch(s.at('/api/v1/posts/goodbye-pidwatch'), { redirect: 'manual' });
    expect(moved.status).toBe(301);
    const location = moved.headers.get('location')!;
    expect(location).toBe('/api/v1/posts/retiring-pid-files');
    const expected = await s.api(location);
    expect(expected.status).toBe(200);
    const result = await client.callTool({ name: 'site_get_post', arguments: { slug: 'goodbye-pidwatch' } });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual(expected.body);
    expect(result.structuredContent.slug).toBe('retiring-pid-files');
    expect(result.content).toEqual([{ type: 'text', text: await (await fetch(s.at('/blog/retiring-pid-files.md'))).text() }]);
  });

  it.each(BAD_CALLS)('$name with $arguments: isError with the API hint', async (call) => {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    const expected = await s.api(call.path);
    expect(expected.status).toBeGreaterThanOrEqual(400);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const envelope = JSON.parse(result.content[0].text);
    expect(envelope.error.code).toBe(expected.body.error.code);
    expect(envelope.error.hint).toBe(expected.body.error.hint);
  });

  it.each([
    [-1, '/api/v1/posts?offset=-1'],
    [1e21, '/api/v1/posts?offset=1000000000000000000000'],
  ])("says an offset of %s is out of range, in the API's own words (D8, D37)", async (offset, path) => {
    const result = await client.callTool({ name: 'site_list_posts', arguments: { offset } });
    const expected = await s.api(path);
    expect(expected.status).toBe(400);
    expect(result.isError).toBe(true);
    const envelope = JSON.parse(result.content[0].text);
    expect(envelope.error).toEqual(expected.body.error);
    expect(envelope.error.message).toMatch(/; it must be between 0 and \d+\.$/);
  });

  it('answers an argument no tool declares with isError naming the arguments it takes', async () => {
    const result = await client.callTool({ name: 'site_get_profile', arguments: { verbose: true } });
    expect(result.isError).toBe(true);
    const envelope = JSON.parse(result.content[0].text);
    expect(envelope.error).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(envelope.error.message).toContain('verbose');
  });

  it('offers every post and service as a resource at its .md twin URL, and reads it (D37, D47)', async () => {
    const { resources } = await client.listResources();
    const posts = (await s.api('/api/v1/posts?limit=100')).body.data;
    const services = (await s.api('/api/v1/services')).body.data;
    expect(resources.map((r) => r.uri)).toEqual([...posts, ...services].map((p: any) => p.markdown_url));
    const service = services[0];
    const read = await client.readResource({ uri: service.markdown_url });
    expect(read.contents[0]!.text).toBe(await (await fetch(s.at(service.markdown_url))).text());
    expect(resources.every((r) => r.mimeType === 'text/markdown' && r.name && r.title)).toBe(true);
    const uri = `${SITE}/blog/short-lived-ssh-certificates.md`;
    const { contents } = await client.readResource({ uri });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
    const twin = await fetch(s.at('/blog/short-lived-ssh-certificates.md'));
    expect(twin.status).toBe(200);
    expect(contents[0].text).toBe(await twin.text());
  });

  it('saw JSON answers only, never a stream or a session id, and no transport error', () => {
    expect(seen.length).toBeGreaterThan(5);
    for (const r of seen) {
      expect(r.session).toBeNull();
      if (r.status === 200 || r.status === 400) expect(r.contentType).toBe('application/json; charset=utf-8');
      else expect([202, 405]).toContain(r.status);
    }
    expect(seen.filter((r) => r.status === 400)).toHaveLength(flavour.refusals ?? 0);
    expect(errors.map((e) => e.message)).toEqual([]);
  });
});
