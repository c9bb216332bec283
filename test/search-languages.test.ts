// Search in the site's language (D12): a German, a French and a Japanese
// site, and an English site with a German post, each built from
// test/fixtures/search-languages/ and searched over a real `folio serve`,
// through the MCP tool with the official client, and with the functions'
// sharded engine against the build's Orama index.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_INDEX_PATH } from '../build/core/files.js';
import { openSearchIndex } from '../build/core/search/engine.js';
import { openSearch } from '../build/runtime/search.js';
import { fileReader } from '../build/serve-files.js';
import { serveBuilt } from './helpers/site.js';

type Site = 'de' | 'fr' | 'ja' | 'mixed';
const sites = {} as Record<Site, Awaited<ReturnType<typeof serveBuilt>>>;

beforeAll(async () => {
  for (const site of ['de', 'fr', 'ja', 'mixed'] as const) sites[site] = await serveBuilt(`test/fixtures/search-languages/${site}`);
}, 120_000);
afterAll(async () => {
  for (const site of Object.values(sites)) await site.close();
});

interface Hit {
  id: string;
  title: string;
  snippet: string;
  score: number;
}

async function search(site: Site, q: string): Promise<{ status: number; body: { data: Hit[]; meta: { total: number } } }> {
  const res = await fetch(sites[site].at(`/api/v1/search?q=${encodeURIComponent(q)}&limit=50`));
  return { status: res.status, body: (await res.json()) as { data: Hit[]; meta: { total: number } } };
}

async function hits(site: Site, q: string): Promise<Hit[]> {
  const { status, body } = await search(site, q);
  expect(status, q).toBe(200);
  return body.data;
}

const ids = async (site: Site, q: string) => (await hits(site, q)).map((h) => h.id);

/** A lone half of a surrogate pair: a snippet cut inside a character. */
const BROKEN = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('a German site', () => {
  it('finds "Überprüfung" typed without umlauts, and with one typo', async () => {
    const found = await hits('de', 'Überprüfung');
    expect(found.map((h) => h.id)).toContain('ueberpruefung-vor-dem-release');
    expect(await hits('de', 'Uberprufung')).toEqual(found);
    expect(await ids('de', 'Überprüfnug')).toContain('ueberpruefung-vor-dem-release');
  });

  it('ranks the post with "Überprüfung" in its title above the one with it in its body', async () => {
    expect(await ids('de', 'Uberprufung')).toEqual(['ueberpruefung-vor-dem-release', 'datenbank-ohne-ausfall']);
  });

  it('finds the compound "Prüfliste" in the German post only, not in the English post about PRs', async () => {
    expect(await ids('de', 'Prüfliste')).toEqual(['ueberpruefung-vor-dem-release']);
    const [hit] = await hits('de', 'Prüfliste');
    expect(hit!.snippet).toContain('Prüfliste');
  });

  it('stems inflected forms: "Änderungen" finds the post that says only "Änderung"', async () => {
    const [hit] = await hits('de', 'Änderungen');
    expect(hit!.id).toBe('datenbank-ohne-ausfall');
    expect(hit!.snippet).toContain('Änderung am Schema');
    const text = await (await fetch(sites.de.at('/blog/datenbank-ohne-ausfall.md'))).text();
    expect(text).not.toContain('Änderungen');
  });

  it('folds ß: "grosse" finds "großen", "Hauptstrasse" finds "Hauptstraße"', async () => {
    expect(await ids('de', 'grosse')).toContain('datenbank-ohne-ausfall');
    const [hit] = await hits('de', 'Hauptstrasse');
    expect(hit!.id).toBe('datenbank-ohne-ausfall');
    expect(hit!.snippet).toContain('Hauptstraße');
  });

  it('finds Japanese words in a German post', async () => {
    for (const q of ['議事録', 'デプロイ']) {
      const [hit] = await hits('de', q);
      expect(hit?.id, q).toBe('ueberpruefung-vor-dem-release');
      expect(hit!.snippet, q).toContain(q);
    }
  });
});

describe('a French site', () => {
  it('finds "l’équipe" for "equipe" and for "l\'équipe" (the elided article is a stop word)', async () => {
    const found = await hits('fr', 'équipe');
    expect(found.map((h) => h.id)).toEqual(['la-revue-de-securite']);
    expect(await hits('fr', 'equipe')).toEqual(found);
    expect(await hits('fr', "l'équipe")).toEqual(found);
  });

  it.each([
    ['securite', 'sécurité'],
    ['activite', 'activités'],
    ['controle', 'contrôle'],
  ])('answers %s as %s: accents make no difference', async (plain, accented) => {
    const found = await hits('fr', accented);
    expect(found.map((h) => h.id)).toEqual(['la-revue-de-securite']);
    expect(await hits('fr', plain)).toEqual(found);
    expect(found[0]!.snippet).toContain(accented);
  });
});

describe('a Japanese site', () => {
  it('finds 議事録 late in a long body, with a snippet around it cut between whole characters', async () => {
    const [hit, ...rest] = await hits('ja', '議事録');
    expect(rest).toEqual([]);
    expect(hit!.id).toBe('gijiroku');
    expect(hit!.snippet).toContain('議事録');
    expect(hit!.snippet.startsWith('…')).toBe(true);
    expect(hit!.snippet.length).toBeLessThanOrEqual(190);
    expect(hit!.snippet).not.toMatch(BROKEN);
  });

  it('ranks the post with デプロイ in its title above the one with it in its body', async () => {
    expect(await ids('ja', 'デプロイ')).toEqual(['deploy', 'gijiroku']);
    expect(await ids('ja', '障害対応')).toEqual(['deploy']);
  });
});

describe('an English site with a post in German', () => {
  it('finds the German words whole and without their umlauts, but does not stem them as German', async () => {
    expect(await ids('mixed', 'Überprüfung')).toEqual(['pruefliste']);
    expect(await ids('mixed', 'Uberprufung')).toEqual(['pruefliste']);
    expect(await ids('mixed', 'Prüfliste')).toEqual(['pruefliste']);
    expect(await ids('mixed', 'Änderung')).toEqual(['pruefliste']);
    expect(await ids('mixed', 'Änderungen')).toEqual([]);
  });
});

describe('queries with no word to search for (D12)', () => {
  it.each([
    ['stop words only', 'und der die'],
    ['punctuation only', '!!! …'],
    ['combining marks only', '\u0301\u0308'],
    ['an emoji', '😀'],
  ])('answer %s with 200 and nothing found, as in English', async (_, q) => {
    for (const site of ['de', 'ja'] as const) {
      const { status, body } = await search(site, q);
      expect(status, `${site}: ${q}`).toBe(200);
      expect(body.data).toEqual([]);
      expect(body.meta.total).toBe(0);
    }
  });

  it('answer a blank query with 400, as in English', async () => {
    expect((await search('de', ' \t ')).status).toBe(400);
  });
});

describe('the MCP search tool, with the official client', () => {
  it('answers as the API, in the site’s language', async () => {
    const client = new Client({ name: 'folio-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sites.de.url}/mcp`)));
    try {
      const result = (await client.callTool({ name: 'site_search_writing', arguments: { query: 'Uberprufung', limit: 5 } })) as {
        structuredContent: { data: Hit[] };
      };
      const api = (await (await fetch(sites.de.at('/api/v1/search?q=Uberprufung&limit=5'))).json()) as { data: Hit[] };
      expect(result.structuredContent).toEqual(api);
      expect(result.structuredContent.data[0]!.id).toBe('ueberpruefung-vor-dem-release');
    } finally {
      await client.close();
    }
  });
});

const QUERIES: Record<Site, string[]> = {
  de: [
    'Überprüfung',
    'Uberprufung',
    'Prüfliste',
    'Änderungen',
    'grosse',
    'Hauptstrasse',
    '議事録',
    'デプロイ',
    'Überprüfnug',
    'PR',
    'und der',
  ],
  fr: ['équipe', "l'équipe", 'securite', 'sécurité', 'activite', 'déploiements', 'forfaits', 'revue facturation', 'le la les'],
  ja: ['議事録', 'デプロイ', '障害対応', '会議 録音', '京都', 'の', 'ロールバック手順'],
  mixed: ['Überprüfung', 'Uberprufung', 'Prüfliste', 'Änderungen', 'review', 'PRs'],
};

describe('the functions’ sharded index answers as the build’s Orama index (D55)', () => {
  it.each(Object.keys(QUERIES) as Site[])('for the %s site', async (site) => {
    const { out } = sites[site];
    const whole = await openSearchIndex(await readFile(join(out, SEARCH_INDEX_PATH), 'utf8'));
    const sharded = await openSearch(fileReader(out));
    let found = 0;
    for (const q of QUERIES[site]) {
      for (const limit of [1, 10, 50]) {
        const expected = whole.search(q, limit);
        expect(await sharded.search(q, limit), `${q} (limit ${limit})`).toEqual(expected);
        found += expected.hits.length;
      }
    }
    expect(found).toBeGreaterThan(QUERIES[site].length);
  });
});
