// GET /api/v1/search on the sample content over a real `folio serve` (D12):
// the validation errors, the shape, and relevance a reader would agree with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../build/core/schemas.js';
import { ajv } from './helpers/ajv.js';
import { serveBuilt } from './helpers/site.js';

let s: Awaited<ReturnType<typeof serveBuilt>>;
const SITE = 'https://hannabrink.example';

beforeAll(async () => {
  s = await serveBuilt();
});
afterAll(() => s?.close());

const validResults = ajv.compile(schemas.SearchResults!);
const validEnvelope = ajv.compile(schemas.ErrorEnvelope!);

interface Hit {
  type: 'post' | 'project' | 'service';
  id: string;
  title: string;
  summary: string;
  url: string;
  markdown_url: string;
  api_url: string;
  snippet: string;
  score: number;
}

async function search(
  query: string,
): Promise<{ res: Response; body: { data: Hit[]; meta: { total: number; limit: number; query: string }; links: { self: string } } }> {
  const res = await fetch(s.at(`/api/v1/search?${query}`));
  return { res, body: (await res.json()) as any };
}

async function hits(q: string, limit = 50): Promise<Hit[]> {
  const { res, body } = await search(`q=${encodeURIComponent(q)}&limit=${limit}`);
  expect(res.status).toBe(200);
  return body.data;
}

/** The record behind a hit, from the API: its tags and its Markdown. */
async function record(hit: Hit): Promise<{ tags: string[]; text: string }> {
  const body = (await (await fetch(s.at(hit.api_url))).json()) as any;
  if (hit.type === 'service') return { tags: [], text: `${body.content_markdown} ${body.best_fit.join(' ')}` };
  return { tags: hit.type === 'project' ? [...body.tags, body.status] : body.tags, text: body.content_markdown };
}

describe('validation (D12)', () => {
  it.each([
    ['missing q', '', /required/],
    ['empty q', 'q=', /empty/],
    ['blank q', 'q=%20%20%09', /blank/],
    ['q of 201 characters', `q=${'a'.repeat(201)}`, /201 characters/],
    ['q given twice', 'q=ssh&q=vat', /2 times/],
  ])('answers %s with 400 invalid_request whose hint shows an example', async (_, query, message) => {
    const { res, body } = await search(query);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(validEnvelope(body), JSON.stringify(validEnvelope.errors)).toBe(true);
    const { error } = body as any;
    expect(error).toMatchObject({ code: 'invalid_request', status: 400, documentation_url: `${SITE}/developers` });
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(/for example q=\w+/);
    expect(error.hint).toContain('200 characters');
  });

  it('accepts q of exactly 200 characters', async () => {
    const { res, body } = await search(`q=${'a'.repeat(200)}`);
    expect(res.status).toBe(200);
    expect(body.meta.total).toBe(0);
  });

  it('counts characters as the schema does: 200 emoji pass, 201 do not', async () => {
    // Each is two UTF-16 code units and one code point; JSON Schema's maxLength counts code points.
    const schema = { type: 'string', minLength: 1, maxLength: 200 };
    const valid = ajv.compile(schema);
    const at = (n: number) => '😀'.repeat(n);
    expect([valid(at(200)), valid(at(201))]).toEqual([true, false]);
    expect((await search(`q=${encodeURIComponent(at(200))}`)).res.status).toBe(200);
    const { res, body } = await search(`q=${encodeURIComponent(at(201))}`);
    expect(res.status).toBe(400);
    expect((body as any).error.message).toContain('is 201 characters long');
  });

  it.each([['limit=0'], ['limit=51'], ['limit=-1'], ['limit=ten'], ['limit=2.5'], ['limit='], ['limit=5&limit=6']])(
    'answers %s with 400 and the valid range',
    async (limit) => {
      const { res, body } = await search(`q=ssh&${limit}`);
      expect(res.status).toBe(400);
      expect((body as any).error.code).toBe('invalid_request');
      expect((body as any).error.hint).toContain('from 1 to 50 (default 10)');
    },
  );
});

describe('the answer (D4, D12)', () => {
  it('has the envelope, the fields, the order and meta', async () => {
    const { res, body } = await search('q=ssh');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(validResults(body), JSON.stringify(validResults.errors)).toBe(true);
    expect(body.meta).toEqual({ total: expect.any(Number), limit: 10, query: 'ssh' });
    expect(body.links.self).toBe(`${SITE}/api/v1/search?q=ssh`);
    expect(body.data.length).toBe(Math.min(10, body.meta.total));
    expect(new Set(body.data.map((h) => h.type))).toEqual(new Set(['post', 'project', 'service']));
    const scores = body.data.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((x) => x > 0)).toBe(true);
  });

  it('links every hit to its page, its Markdown twin and its API record', async () => {
    for (const hit of await hits('ssh')) {
      const api = await fetch(s.at(hit.api_url));
      expect(api.status, hit.api_url).toBe(200);
      const body = (await api.json()) as any;
      // Every hit has its own record and page, services included (D47).
      const item = body;
      expect(item.id ?? item.slug).toBe(hit.id);
      expect(item.title).toBe(hit.title);
      expect(item.summary).toBe(hit.summary);
      expect(item.url).toBe(hit.url);
      expect(hit.url).not.toContain('#');
      const page = await fetch(s.at(hit.url));
      expect(page.status, hit.url).toBe(200);
      // The twin the record names, as the post list gives it; an agent reads it without guessing.
      expect(hit.markdown_url).toBe(item.markdown_url ?? `${hit.url}.md`);
      const twin = await fetch(s.at(hit.markdown_url));
      expect(twin.status, hit.markdown_url).toBe(200);
      expect(twin.headers.get('content-type')).toMatch(/^text\/markdown/);
    }
  });

  it('pages with limit and keeps the total', async () => {
    const all = await search('q=email&limit=50');
    const one = await search('q=email&limit=1');
    expect(one.body.data).toEqual(all.body.data.slice(0, 1));
    expect(one.body.meta).toEqual({ total: all.body.meta.total, limit: 1, query: 'email' });
    expect(one.body.links.self).toBe(`${SITE}/api/v1/search?q=email&limit=1`);
  });

  it('trims the query it reports, and ignores case', async () => {
    const { body } = await search('q=%20Deliverability%20');
    expect(body.meta.query).toBe('Deliverability');
    expect(body.data).toEqual((await search('q=deliverability')).body.data);
  });

  it('answers 200 with no results for words it does not hold', async () => {
    for (const q of ['kubernetes', 'the', 'zzzz qqqq']) {
      const { res, body } = await search(`q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      expect(body.data).toEqual([]);
      expect(body.meta.total).toBe(0);
    }
  });
});

describe('relevance (D12)', () => {
  it('finds the email deliverability post first for "deliverabilty" (one typo)', async () => {
    const [first] = await hits('deliverabilty');
    expect(first).toMatchObject({ type: 'post', id: 'email-deliverability-b2b-saas' });
  });

  it.each([
    ['certficates', 'short-lived-ssh-certificates'],
    ['bastoin', 'managed-bastion'],
    ['graceful shutdonw', 'graceful-shutdown-is-a-contract'],
  ])('tolerates one typo per word: %s', async (q, id) => {
    expect((await hits(q)).map((h) => h.id)).toContain(id);
  });

  it.each(['certificates', 'bastion', 'monorepo', 'cache', 'dmarc', 'shutdown', 'vat', 'readiness', 'pull request'])(
    'ranks every title match of %j above every body-only match',
    async (q) => {
      const words = q.split(' ').map((w) => new RegExp(`\\b${w.slice(0, 5)}`, 'i'));
      const found = await hits(q);
      const inTitle: number[] = [];
      const bodyOnly: number[] = [];
      for (const [i, hit] of found.entries()) {
        const { tags } = await record(hit);
        if (words.some((w) => w.test(hit.title))) inTitle.push(i);
        else if (!words.some((w) => w.test(hit.summary) || tags.some((t) => w.test(t.replace(/-/g, ' '))))) bodyOnly.push(i);
      }
      expect(inTitle.length, 'some title matches').toBeGreaterThan(0);
      expect(bodyOnly.length, 'some body-only matches').toBeGreaterThan(0);
      expect(Math.max(...inTitle)).toBeLessThan(Math.min(...bodyOnly));
    },
  );

  it('stems English words: "certificates" finds a project that only says "certificate"', async () => {
    const found = await hits('certificates');
    const project = found.find((h) => h.id === 'media-data-team-devboxes');
    expect(project).toBeDefined();
    const { text } = await record(project!);
    expect(text).not.toMatch(/certificates/i);
    expect(text).toMatch(/certificate\b/i);
  });

  it('stems English words: "shutting down" finds "shut … down"', async () => {
    const found = await hits('shutting down');
    const shut = found.filter((h) => /\bshut\b/i.test(h.snippet));
    expect(shut.map((h) => h.id)).toEqual(expect.arrayContaining(['managed-bastion', 'short-lived-ssh-certificates']));
  });

  it('counts tags: "daemons" finds the graceful shutdown post, which says it only in its tags', async () => {
    const found = await hits('daemons');
    const hit = found.find((h) => h.id === 'graceful-shutdown-is-a-contract');
    expect(hit).toBeDefined();
    const { tags, text } = await record(hit!);
    expect(tags).toContain('daemons');
    expect(`${hit!.title} ${hit!.summary} ${text}`).not.toMatch(/daemon/i);
  });

  it('matches hyphenated words and tags from either spelling', async () => {
    const spaced = (await hits('dev environments')).map((h) => h.id);
    const hyphenated = (await hits('dev-environments')).map((h) => h.id);
    expect(spaced).toEqual(hyphenated);
    expect(spaced).toContain('what-a-coding-harness-actually-does');
  });

  it('cuts snippets around the match', async () => {
    for (const [q, pattern] of [
      ['proxyjump', /proxyjump/i],
      ['sd_notify', /notify/i],
      ['invoices', /invoic(e|es|ing)\b/i],
      ['readiness', /\bread(y|iness)\b/i],
    ] as const) {
      const found = await hits(q);
      expect(found.length, q).toBeGreaterThan(0);
      for (const hit of found) {
        expect(hit.snippet.length, q).toBeLessThanOrEqual(190);
        expect(hit.snippet, `${q} in ${hit.id}`).toMatch(pattern);
      }
    }
  });
});
