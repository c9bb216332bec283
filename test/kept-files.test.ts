// What a function keeps between the requests of an isolate
// (build/core/kept-files.ts): the tagged files by path and tag (their reuse
// across builds is tested in edge-edit.test.ts, their budget with the search
// shards in edge-search.test.ts), and the head, parsed again only when its
// text changes.
import { describe, expect, it } from 'vitest';
import { KeptFiles } from '../build/core/kept-files.js';
import { KEEP_EDGE_BYTES } from '../build/runtime/edge.js';

describe('the head a handler keeps', () => {
  it('is parsed again only when its text changes, and is shared frozen, so a request cannot change the next one', () => {
    const kept = new KeptFiles(KEEP_EDGE_BYTES);
    let parses = 0;
    const parse = (text: string) => (parses++, JSON.parse(text) as { site: { config: { title: string }; services: { id: string }[] } });
    const text = '{"site":{"config":{"title":"A"},"services":[{"id":"audit"}]}}';
    const first = kept.parsed(text, parse);
    expect(kept.parsed(`${text}`, parse)).toBe(first);
    expect(parses).toBe(1);
    expect(() => {
      first.site.config.title = 'B';
    }).toThrow(TypeError);
    expect(() => first.site.services.push({ id: 'other' })).toThrow(TypeError);
    expect(first.site.config.title).toBe('A');

    const next = kept.parsed(text.replace('"A"', '"B"'), parse);
    expect(next.site.config.title).toBe('B');
    expect(parses).toBe(2);
  });
});
