// Search in the site's language (D12): a German, a French and a Japanese
// site, and an English site with a German post, each built from
// test/fixtures/search-languages/ and searched over a real `folio serve`,
// through the MCP tool with the official client, and with the functions'
// sharded engine against the build's Orama index.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_HEAD_PATH } from '../build/core/edge.js';
import { SEARCH_INDEX_PATH } from '../build/core/files.js';
import type { SearchHead } from '../build/core/search/shards.js';
import { openSearchIndex } from '../build/core/search/engine.js';
import { openSearch } from '../build/runtime/search.js';
import { fileReader } from '../build/serve-files.js';
// @ts-expect-error plain JavaScript module of the benchmark
import { prng } from '../bench/corpus.js';
import { buildInto, serveBuilt, tempDir } from './helpers/site.js';

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

/** `accented` finds the post `id` alone, `plain` finds the same, and the snippet shows the word as written. */
async function sameWithoutAccents(site: Site, plain: string, accented: string, id: string): Promise<void> {
  const found = await hits(site, accented);
  expect(found.map((h) => h.id)).toEqual([id]);
  expect(await hits(site, plain)).toEqual(found);
  expect(found[0]!.snippet).toContain(accented);
}

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

  it('does not stem: "Änderung" finds the post that says it, "Änderungen" (two letters more) does not', async () => {
    const text = await (await fetch(sites.de.at('/blog/datenbank-ohne-ausfall.md'))).text();
    expect(text).toContain('Änderung am Schema');
    expect(text).not.toContain('Änderungen');
    const [hit] = await hits('de', 'Änderung');
    expect(hit!.id).toBe('datenbank-ohne-ausfall');
    expect(hit!.snippet).toContain('Änderung am Schema');
    expect(await ids('de', 'Änderungen')).not.toContain('datenbank-ohne-ausfall');
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
  ])('answers %s as %s: accents make no difference', (plain, accented) =>
    sameWithoutAccents('fr', plain, accented, 'la-revue-de-securite'),
  );
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

  it.each([
    ['securite', 'sécurité'],
    ['resume', 'résumé'],
    ['cafe', 'café'],
  ])('answers %s as %s: the accents English keeps make no difference either', (plain, accented) =>
    sameWithoutAccents('mixed', plain, accented, 'security-review-in-lyon'),
  );
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
  mixed: ['Überprüfung', 'Uberprufung', 'Prüfliste', 'Änderungen', 'review', 'PRs', 'securite', 'sécurité', 'résumés', 'resume'],
};

describe('the functions’ sharded index answers as the build’s Orama index (D55)', () => {
  it.each(Object.keys(QUERIES) as Site[])('for the %s site', async (site) => {
    const { out } = sites[site];
    const whole = openSearchIndex(await readFile(join(out, SEARCH_INDEX_PATH), 'utf8'));
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

/** Japanese words, katakana, kanji (one beyond the Basic Multilingual Plane, 𠮷) and a Latin name, for a corpus of many term shards. */
const JA_WORDS = (
  '議事録 デプロイ 障害対応 手順書 ロールバック 監視 証明書 到達率 キャッシュ 依存関係 正常終了 再起動 請求書 消費税 経費 ' +
  'レビュー プルリクエスト 負荷試験 本番環境 設定 権限 境界 監査 記録 報告書 再発防止 会議 録音 決定事項 宿題 顧客 支援 ' +
  '𠮷野家 東京都 京都 大学 研究 評価 データベース マイグレーション スキーマ インデックス バックアップ 復旧 暗号化 鍵 ' +
  'ネットワーク ファイアウォール コンテナ クラスター スケジューラー キュー ワーカー タイムアウト 再試行 Grafana'
).split(' ');
const PARTICLES = ['の', 'を', 'に', 'と', 'で', 'は', 'が'];

/** A Japanese site of `n` posts, each the same seeded mix of words and particles. */
function japaneseCorpus(n: number): Record<string, string> {
  const rand = prng(0x6a61) as () => number;
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const sentence = () => `${Array.from({ length: 6 }, () => pick(JA_WORDS) + pick(PARTICLES)).join('')}${pick(JA_WORDS)}。`;
  const files: Record<string, string> = {
    'site.yaml': 'title: 検索\ndescription: 日本語の検索\nsite_url: https://ja.example\nlanguage: ja\n',
    'profile.md':
      '---\nname: 佐藤\nheadline: インフラ\nlocation: 東京\nexpertise: [インフラ]\navailability: { status: available }\ncontact: { email: a@ja.example }\n---\n\n東京。\n',
  };
  for (let i = 1; i <= n; i++) {
    const title = `${pick(JA_WORDS)}${pick(PARTICLES)}${pick(JA_WORDS)}`;
    const body = Array.from({ length: 12 }, sentence).join('');
    files[`posts/post-${i}.md`] = `---\ntitle: "${title}"\ndate: 2026-01-01\nsummary: "${sentence()}"\n---\n\n${body}\n`;
  }
  return files;
}

describe('a Japanese site large enough for many term shards (D55)', () => {
  it('cuts shards between multi-byte terms and answers as the whole index, astral characters and typos included', async () => {
    const content = await tempDir('folio-ja-corpus-');
    try {
      for (const [path, text] of Object.entries(japaneseCorpus(150))) {
        await mkdir(dirname(join(content, path)), { recursive: true });
        await writeFile(join(content, path), text);
      }
      const { out } = await buildInto(content);
      const head = JSON.parse(await readFile(join(out, SEARCH_HEAD_PATH), 'utf8')) as SearchHead;
      expect(head.language).toBe('ja');
      expect(head.terms.length).toBeGreaterThan(3);
      expect(head.terms.slice(1).every((t) => /[^\x00-\x7f]/.test(t))).toBe(true);
      const whole = openSearchIndex(await readFile(join(out, SEARCH_INDEX_PATH), 'utf8'));
      const sharded = await openSearch(fileReader(out));
      const queries = [...JA_WORDS, '𠮷野', 'デプロ', 'マイグレーショ', 'バックアプ', 'grafana', 'Grafna', '議事録 デプロイ', 'の'];
      let found = 0;
      for (const q of queries) {
        const expected = whole.search(q, 10);
        expect(await sharded.search(q, 10), q).toEqual(expected);
        found += expected.hits.length;
      }
      expect(found).toBeGreaterThan(queries.length * 5);
      const astral = (await sharded.search('𠮷野家', 50)).hits.map((h) => h.snippet);
      expect(astral.filter((snippet) => snippet.includes('𠮷野家')).length).toBeGreaterThan(astral.length / 2);
      expect(astral.filter((snippet) => BROKEN.test(snippet))).toEqual([]);
      expect((await sharded.search('バックアプ', 3)).hits.length).toBe(3);
    } finally {
      await rm(content, { recursive: true, force: true });
    }
  }, 60_000);
});
