// D54: the sample's /openapi.json, served by `folio serve`, against Redocly
// CLI (`recommended`) and Spectral (`spectral:oas`), run as their users run
// them; each is also shown a broken document, so a linter that silently checks
// nothing fails. The license the document declares follows the site's (D51).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { openApiDocument } from '../build/core/documents/openapi.js';
import { bin, cli, CONFIG, servedSample, SLOW } from './helpers/linters.js';

const s = servedSample();
let doc: any;

beforeAll(async () => {
  doc = await (await fetch(s.at('/openapi.json'))).json();
});

async function writeDocument(name: string, document: unknown): Promise<string> {
  const file = join(s.dir, name);
  await writeFile(file, JSON.stringify(document, null, 2));
  return file;
}

interface Finding {
  rule: string;
  severity: string;
  where: string;
}

/** Redocly's problems (errors and warnings alike) as rule + JSON pointer. */
async function redocly(file: string, skip: readonly string[] = []): Promise<Finding[]> {
  const args = ['lint', file, '--config', join(CONFIG, 'redocly.yaml'), '--format', 'json', ...skip.flatMap((r) => ['--skip-rule', r])];
  const { stdout, stderr } = await cli(bin('redocly'), args);
  const start = stdout.indexOf('{');
  expect(start, `redocly printed no JSON report: ${stderr}`).toBeGreaterThanOrEqual(0);
  const report = JSON.parse(stdout.slice(start));
  return report.problems.map((p: any) => ({ rule: p.ruleId, severity: p.severity, where: p.location?.[0]?.pointer ?? '' }));
}

/** Spectral's results at every severity, written to a file so nothing else on stdout can mix in. */
async function spectral(file: string): Promise<Finding[]> {
  const out = `${file}.spectral.json`;
  const { stderr } = await cli(bin('spectral'), [
    'lint',
    file,
    '-r',
    join(CONFIG, 'spectral.yaml'),
    '-f',
    'json',
    '-o',
    out,
    '--fail-severity',
    'hint',
  ]);
  const results = JSON.parse(await readFile(out, 'utf8').catch(() => `null`));
  expect(results, `spectral wrote no report: ${stderr}`).not.toBeNull();
  const severity = ['error', 'warning', 'info', 'hint'];
  return results.map((r: any) => ({ rule: r.code, severity: severity[r.severity] ?? String(r.severity), where: r.path.join('.') }));
}

/** The license rule applies when the site states a license; a site that states none has nothing true to declare (D51). */
async function statesLicense(): Promise<boolean> {
  const config = parseYaml(await readFile('content/site.yaml', 'utf8')) as Record<string, unknown>;
  return config.license != null;
}

describe('/openapi.json against Redocly CLI recommended (D54)', () => {
  it('has no error and no warning', SLOW, async () => {
    const file = await writeDocument('openapi.json', doc);
    // Without a stated license, info-license is the one rule that cannot be met honestly: see the next test.
    const skip = (await statesLicense()) ? [] : ['info-license'];
    expect(await redocly(file, skip)).toEqual([]);
    // The YAML twin is the same document, read by Redocly's own YAML parser.
    const yaml = join(s.dir, 'openapi.yaml');
    await writeFile(yaml, await (await fetch(s.at('/openapi.yaml'))).text());
    expect(await redocly(yaml, skip)).toEqual([]);
  });

  it('declares the license the site states, and invents none when it states none', SLOW, async () => {
    const licensed = openApiDocument({
      ...s.site,
      config: { ...s.site.config, license: { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' } },
    });
    expect(licensed.info.license).toEqual({ name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' });
    expect(await redocly(await writeDocument('licensed.json', licensed))).toEqual([]);

    const unlicensed = openApiDocument({ ...s.site, config: { ...s.site.config, license: null } });
    expect('license' in unlicensed.info).toBe(false);
    const findings = await redocly(await writeDocument('unlicensed.json', unlicensed));
    expect(findings).toEqual([{ rule: 'info-license', severity: 'warn', where: '#/info' }]);
  });

  it('reports an operation that drops security: [] (the rule can fail)', SLOW, async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/posts'].get.security;
    const findings = await redocly(await writeDocument('broken-security.json', broken), ['info-license']);
    expect(findings).toEqual([{ rule: 'security-defined', severity: 'error', where: '#/paths/~1posts/get' }]);
  });

  it('every operation is public and tagged, and every tag is declared with a description', () => {
    const operations = Object.values(doc.paths).map((item: any) => item.get);
    const declared = new Map(doc.tags.map((t: any) => [t.name, t.description]));
    for (const op of operations) {
      expect(op.security, op.operationId).toEqual([]);
      expect(op.tags, op.operationId).toHaveLength(1);
      expect(declared.get(op.tags[0]), op.operationId).toMatch(/\S/);
    }
    expect(new Set(operations.map((op: any) => op.tags[0])).size).toBe(declared.size);
  });
});

describe('/openapi.json against Spectral spectral:oas (D54)', () => {
  it('has no result at any severity', SLOW, async () => {
    expect(await spectral(await writeDocument('openapi-spectral.json', doc))).toEqual([]);
  });

  it('reports an operation without tags (the rule can fail)', SLOW, async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/search'].get.tags;
    const findings = await spectral(await writeDocument('broken-tags.json', broken));
    expect(findings).toEqual([{ rule: 'operation-tags', severity: 'warning', where: 'paths./search.get' }]);
  });
});
