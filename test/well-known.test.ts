// The discovery documents under /.well-known over a real `folio serve`: the
// RFC 9727 api-catalog linkset (D30), the AI Catalog (D33) and the agent
// instructions (D34). The MCP server card has its own file.
import { describe, expect, it } from 'vitest';
import { BASE, SITE, servedDocuments } from './helpers/documents.js';

const { get, json, local, text } = servedDocuments();

describe('/.well-known/api-catalog (D30, RFC 9727)', () => {
  it('is a linkset with its media type and profile parameter, anchored at base_url', async () => {
    const res = await get('/.well-known/api-catalog');
    const [media, ...params] = res.headers
      .get('content-type')!
      .split(';')
      .map((p) => p.trim());
    expect(media).toBe('application/linkset+json');
    expect(params).toContain('profile="https://www.rfc-editor.org/info/rfc9727"');
    const body = (await res.json()) as any;
    expect(Object.keys(body)).toEqual(['linkset']);
    const entry = body.linkset.find((e: any) => e.anchor === BASE);
    expect(entry).toBeDefined();
    expect(entry['service-desc']).toEqual([
      { href: `${SITE}/openapi.json`, type: 'application/json' },
      { href: `${SITE}/openapi.yaml`, type: 'application/yaml' },
    ]);
    expect(entry['service-doc']).toEqual([{ href: `${SITE}/developers`, type: 'text/html' }]);
    expect(entry['service-meta'][0].href).toBe(BASE);
    // Every target resolves, served with the media type the link announces (RFC 8288 §3.4.1).
    for (const rel of ['service-desc', 'service-doc', 'service-meta']) {
      for (const link of entry[rel]) {
        const target = await get(local(link.href));
        expect(target.status, link.href).toBe(200);
        expect(target.headers.get('content-type')!.split(';')[0], link.href).toBe(link.type);
      }
    }
  });

  it('HEAD carries Link: rel="api-catalog" pointing at itself', async () => {
    const res = await get('/.well-known/api-catalog', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(`<${SITE}/.well-known/api-catalog>; rel="api-catalog"`);
  });
});

describe('/.well-known/ai-catalog.json (D33)', () => {
  it('lists the MCP server card and the API, each with identifier, media type and a URL that resolves', async () => {
    const catalog = await json('/.well-known/ai-catalog.json');
    expect(catalog.specVersion).toMatch(/^\d+\.\d+$/);
    expect(catalog.entries.map((e: any) => e.type).sort()).toEqual(['application/mcp-server-card+json', 'application/openapi+json']);
    for (const entry of catalog.entries) {
      expect(typeof entry.identifier).toBe('string');
      expect(entry.identifier).toMatch(/^urn:air:hannabrink\.example:/);
      const res = await get(local(entry.url));
      expect(res.status, entry.url).toBe(200);
      await res.json();
    }
    const card = catalog.entries.find((e: any) => e.type === 'application/mcp-server-card+json');
    expect((await get(local(card.url))).headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(new Set(catalog.entries.map((e: any) => e.identifier)).size).toBe(catalog.entries.length);
  });
});

describe('/.well-known/agent-instructions (D34)', () => {
  it('tells an agent what the site holds, where to start, fair use, and that it is no advice', async () => {
    const md = await text('/.well-known/agent-instructions');
    expect(md).toMatch(/^# /);
    expect(md).toContain(`${SITE}/llms.txt`);
    expect(md).toContain(BASE);
    expect(md).toContain(`${SITE}/openapi.json`);
    expect(md).toContain(`${SITE}/mcp`);
    expect(md).toMatch(/60 requests a minute/);
    expect(md).toMatch(/nothing here is legal, tax or accounting advice/i);
    for (const tool of ['site_get_profile', 'site_list_posts', 'site_get_post', 'site_search_writing', 'site_list_projects'])
      expect(md).toContain(tool);
  });

  it('names the owner, then gives the headline and the location as written, never spliced mid-sentence', async () => {
    const md = await text('/.well-known/agent-instructions');
    const profile = await json('/api/v1/profile');
    expect(profile.headline).toMatch(/^\p{Lu}/u);
    expect(md).toContain(`\n\nThis site belongs to ${profile.name}: ${profile.headline}. Location: ${profile.location}. It holds `);
    expect(md).not.toContain(`${profile.name}, ${profile.headline}`);
  });
});
