// The tiny JSON → YAML emitter behind /openapi.yaml (D25): the `yaml`
// package, an independent parser, must read back exactly the JSON it was given.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from '../build/core/documents/yaml.js';

const roundTrip = (value: unknown) => parse(toYaml(value), { version: '1.2', uniqueKeys: true });

describe('toYaml', () => {
  it('keeps strings that YAML would otherwise read as something else', () => {
    const tricky = [
      'true',
      'No',
      'null',
      '~',
      '',
      ' lead',
      'trail ',
      '3.1.0',
      '200',
      '0x1F',
      '1e3',
      '.inf',
      '-',
      '- item',
      '? q',
      'a: b',
      'a:',
      'a #b',
      '#/components/schemas/Post',
      '{slug}',
      '[x]',
      '*alias',
      '&anchor',
      '!tag',
      '|',
      '>',
      '%',
      '@',
      '`',
      "it's",
      'say "hi"',
      'line\nbreak',
      'tab\there',
      '\u0085\u2028\u007f\ufeff',
      'Hanna Brink — Consulting',
      'https://hannabrink.example/api/v1',
      '2026-11-22',
      'y',
      'N',
      '<<',
    ];
    for (const s of tricky) expect(roundTrip({ [s]: s, list: [s] })).toEqual({ [s]: s, list: [s] });
  });

  it('writes empty maps and arrays, nested arrays and numbers', () => {
    const value = { a: {}, b: [], c: [[1, [2, []]], { d: null, e: false }], f: -0.5, g: 1e21, h: [{}, []] };
    expect(roundTrip(value)).toEqual(value);
    expect(roundTrip([])).toEqual([]);
    expect(roundTrip('x')).toEqual('x');
  });

  it('round-trips any JSON value (property, 300 runs)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const json = JSON.parse(JSON.stringify(value));
        expect(roundTrip(json)).toEqual(json);
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic', () => {
    const value = { z: 1, a: [1, 'two', { three: 3 }] };
    expect(toYaml(value)).toBe(toYaml(structuredClone(value)));
    expect(toYaml(value)).toBe('z: 1\na:\n  - 1\n  - two\n  - three: 3\n');
  });
});
