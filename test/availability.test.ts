// D60 through a real `folio serve` and the real CLI: availability and
// engagement terms as data, the yes-or-no check of a service and a month,
// the pages that show them, and every content error of the new fields.
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../build/core/schemas.js';
import { ajv } from './helpers/ajv.js';
import { serveBuilt } from './helpers/site.js';
import { brokenSample, type BrokenSample } from './helpers/broken.js';

const SITE = 'https://hannabrink.example';
const BASE = `${SITE}/api/v1`;
let s: Awaited<ReturnType<typeof serveBuilt>>;

beforeAll(async () => {
  // The build clock of the helpers is 2026-11-22; the sample states from 2026-12-07, 2 weeks' notice, a 6-month horizon.
  s = await serveBuilt();
});
afterAll(() => s?.close());

const validate = ajv.compile(schemas.Availability!);

async function json(path: string) {
  const res = await fetch(s.at(path));
  return { res, body: (await res.json()) as any };
}

describe('GET /api/v1/availability (D60)', () => {
  it('states the terms, the earliest start on the build day and the horizon, valid against its schema', async () => {
    const { res, body } = await json('/api/v1/availability');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-api-version')).toBe('v1');
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toMatchObject({
      status: 'limited',
      from: '2026-12-07',
      days_per_week: 2,
      lead_time_weeks: 2,
      booking_url: 'https://cal.hannabrink.example/intro-call',
      as_of: '2026-11-22',
      // max(build day 2026-11-22, + 2 weeks = 2026-12-06, from = 2026-12-07)
      earliest_start: '2026-12-07',
      horizon: { from: '2026-11', to: '2027-04' },
      check: null,
      api_url: `${BASE}/availability`,
    });
    const profile = (await json('/api/v1/profile')).body;
    expect(body.engagements.map((e: any) => e.service)).toEqual(profile.availability.engagements.map((e: any) => e.service));
    const services = (await json('/api/v1/services')).body.data.map((x: any) => x.id);
    for (const e of body.engagements) {
      expect(services).toContain(e.service);
      expect(e.api_url).toBe(`${BASE}/services/${e.service}`);
      expect(e.formats.length).toBeGreaterThan(0);
    }
  });

  it('answers that a month before the earliest start does not fit, and a later one does, from that day', async () => {
    const nov = (await json('/api/v1/availability?service=email-deliverability&month=2026-11')).body;
    expect(nov.check).toMatchObject({
      service: 'email-deliverability',
      month: '2026-11',
      fits: false,
      starts: null,
      formats: ['audit', 'project'],
    });
    expect(nov.check.answer).toContain('2026-12-07');
    const dec = (await json('/api/v1/availability?service=email-deliverability&month=2026-12')).body;
    expect(dec.check).toMatchObject({ fits: true, starts: '2026-12-07' });
    const feb = (await json('/api/v1/availability?month=2027-02')).body;
    expect(feb.check).toMatchObject({ service: null, fits: true, starts: '2027-02-01' });
    expect(feb.check.answer).toContain('https://cal.hannabrink.example/intro-call');
    for (const body of [nov, dec, feb]) expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it('says a service without an engagement on offer does not fit, whatever the month', async () => {
    const { body } = await json('/api/v1/availability?service=agentic-coding-enablement&month=2027-01');
    expect(body.check).toMatchObject({ fits: false, formats: [], rate_band: null });
    expect(body.check.answer).toMatch(/not offered/);
  });

  it('precomputes every question the horizon allows, and the query order does not matter', async () => {
    await access(join(s.out, 'api/v1/availability@service=email-deliverability&month=2027-04.json'));
    const a = await fetch(s.at('/api/v1/availability?month=2027-04&service=email-deliverability'));
    const b = await fetch(s.at('/api/v1/availability?service=email-deliverability&month=2027-04'));
    expect(await a.text()).toBe(await b.text());
  });

  it.each([
    ['/api/v1/availability?service=no-such-service', /no service with the id "no-such-service"/, /email-deliverability/],
    ['/api/v1/availability?month=2027-05', /2026-11 to 2027-04, not for 2027-05/, /2026-11 to 2027-04/],
    ['/api/v1/availability?month=2026-10', /not for 2026-10/, /cal\.hannabrink\.example/],
    ['/api/v1/availability?month=January', /`month` is not in the expected form/, /month=2027-01/],
    ['/api/v1/availability?month=2027-13', /`month` is not in the expected form/, /month=2027-01/],
    ['/api/v1/availability?month=2027-01&month=2027-02', /given 2 times/, /month=2027-01/],
  ])('%s answers 400 invalid_request with a hint', async (path, message, hint) => {
    const { res, body } = await json(path);
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(body.error).toMatchObject({ code: 'invalid_request', status: 400, documentation_url: `${SITE}/developers` });
    expect(body.error.message).toMatch(message);
    expect(body.error.hint).toMatch(hint);
  });

  it('is in the discovery document and the OpenAPI description', async () => {
    const discovery = (await json('/api/v1')).body;
    const op = discovery.endpoints.find((e: any) => e.operationId === 'getAvailability');
    expect(op).toMatchObject({ path: '/api/v1/availability', url: `${BASE}/availability` });
    expect(op.parameters.map((p: any) => p.name)).toEqual(['service', 'month']);
    const openapi = (await json('/openapi.json')).body;
    expect(openapi.paths['/availability'].get.operationId).toBe('getAvailability');
    const llms = await (await fetch(s.at('/llms.txt'))).text();
    expect(llms).toContain(`(${BASE}/availability)`);
    const developers = await (await fetch(s.at('/developers.md'))).text();
    expect(developers).toContain('### GET /api/v1/availability (getAvailability)');
  });
});

describe('availability on the pages (D60)', () => {
  it('shows the earliest start, the days, the notice and where to book on the home and about pages', async () => {
    for (const path of ['/', '/about']) {
      const page = await (await fetch(s.at(path))).text();
      expect(page, path).toContain('<li>Earliest start: 7 December 2026</li>');
      expect(page, path).toContain('<li>Days a week: 2</li>');
      expect(page, path).toContain('<li>Notice: 2 weeks</li>');
      expect(page, path).toContain('<a href="https://cal.hannabrink.example/intro-call">Book a call</a>');
    }
    const about = await (await fetch(s.at('/about'))).text();
    expect(about).toMatch(/<h2 id="engagements">Engagements<\/h2>[\s\S]*<td>audit, project, retainer<\/td><td>EUR 950–1,150 a day<\/td>/);
    // Each engagement links its service's own page (D47).
    expect(about).toContain(
      '<tr><td><a href="/services/monorepo-build-pipelines">Monorepo build pipelines</a></td><td>audit, project, retainer</td>',
    );
  });

  it('puts the same facts in the twins', async () => {
    const about = await (await fetch(s.at('/about.md'))).text();
    expect(about).toMatch(
      /^- Availability: Limited availability\. .* Earliest start: 7 December 2026\. Days a week: 2\. Notice: 2 weeks\. Book: <https:\/\/cal\.hannabrink\.example\/intro-call>\.$/m,
    );
    expect(about).toContain('## Engagements\n\n- [Email deliverability');
    expect(about).toContain(
      `\n- [Monorepo build pipelines](${SITE}/services/monorepo-build-pipelines.md): audit, project, retainer; EUR 950–1,150 a day\n`,
    );
    const home = await (await fetch(s.at('/index.md'))).text();
    expect(home).toMatch(/^- Availability: .*Earliest start: 7 December 2026\./m);
  });
});

describe('content errors in availability (D60, D2, D40)', () => {
  let sample: BrokenSample;
  beforeAll(async () => {
    sample = await brokenSample();
  });
  afterAll(() => sample.close());

  /** The sample with `from`…`to` replaced in profile.md, built over the good dist. */
  async function breakProfile(from: string | RegExp, to: string) {
    let next = '';
    const r = await sample.breakWith(async (dir) => {
      const file = join(dir, 'profile.md');
      const text = await readFile(file, 'utf8');
      next = text.replace(from, to);
      expect(next).not.toBe(text);
      await writeFile(file, next);
    });
    const line = (pattern: RegExp) => next.split('\n').findIndex((l) => pattern.test(l)) + 1;
    return { stderr: r.stderr, at: (pattern: RegExp) => `${r.rel}/profile.md:${line(pattern)}:` };
  }

  it('an engagement naming a service that does not exist', async () => {
    const r = await breakProfile('- service: monorepo-build-pipelines', '- service: monorepo-build-pipeline');
    expect(r.stderr).toContain(`${r.at(/- service: monorepo-build-pipeline$/)}`);
    expect(r.stderr).toContain('The engagement names the service "monorepo-build-pipeline", which does not exist.');
    expect(r.stderr).toMatch(/hint: Did you mean "monorepo-build-pipelines"\? Service ids: /);
  });

  it('a `from` date that does not parse', async () => {
    const r = await breakProfile('from: 2026-12-07', 'from: 2026-12-47');
    expect(r.stderr).toContain(`${r.at(/^ {2}from:/)}3: \`availability.from\` is not a date`);
    expect(r.stderr).toContain('YYYY-MM-DD');
  });

  it.each([
    ['days_per_week: 8', /^ {2}days_per_week:/, 'outside 0.5–7'],
    ['days_per_week: 0.25', /^ {2}days_per_week:/, 'outside 0.5–7'],
    ['days_per_week: two', /^ {2}days_per_week:/, 'outside 0.5–7'],
  ])('days_per_week outside 0.5–7: %s', async (line, at, message) => {
    const r = await breakProfile('days_per_week: 2', line);
    expect(r.stderr).toContain(`${r.at(at)}3: \`availability.days_per_week\``);
    expect(r.stderr).toContain(message);
  });

  it('a negative lead time', async () => {
    const r = await breakProfile('lead_time_weeks: 2', 'lead_time_weeks: -1');
    expect(r.stderr).toContain(`${r.at(/^ {2}lead_time_weeks:/)}3: \`availability.lead_time_weeks\` is -1`);
  });

  it.each(['cal.hannabrink.example/intro', 'javascript:alert(1)', 'mailto:hello@hannabrink.example'])(
    'a booking_url that is not an absolute http(s) URL: %s',
    async (url) => {
      const r = await breakProfile('booking_url: https://cal.hannabrink.example/intro-call', `booking_url: "${url}"`);
      expect(r.stderr).toContain(`${r.at(/^ {2}booking_url:/)}3: \`availability.booking_url\``);
      expect(r.stderr).toContain('not an absolute http(s) URL');
    },
  );

  it('a typo of a field', async () => {
    const r = await breakProfile('lead_time_weeks: 2', 'lead_time_week: 2');
    expect(r.stderr).toContain(`${r.at(/^ {2}lead_time_week:/)}3: \`availability.lead_time_week\` is not a field of availability.`);
    expect(r.stderr).toContain('Did you mean "lead_time_weeks"?');
  });
});
