// One source per fact: each API operation enumerates its own targets, and
// the link check knows exactly the addresses the families enumerate.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enumerateApi, matchOperation } from '../build/core/api/index.js';
import { operations } from '../build/core/api/operations.js';
import { pagePaths } from '../build/core/pages/index.js';
import { sitePages } from '../build/core/documents/site-pages.js';
import { enumerate, families, targetsOf } from '../build/core/families.js';
import { twinPath } from '../build/core/urls.js';
import { knownPaths } from '../build/site-links.js';
import { SiteModel } from '../build/core/site-model.js';
import { buildInto } from './helpers/site.js';

describe('enumerated targets', async () => {
  const { site, out, model: built } = await buildInto();
  afterAll(() => rm(join(out, '..'), { recursive: true, force: true }));

  it('each operation enumerates only targets of its own path, and every operation but search has some', () => {
    for (const op of operations) {
      const targets = op.enumerate?.(site, '/api/v1') ?? [];
      if (op.operationId === 'searchContent') expect(targets).toEqual([]);
      else expect(targets.length, op.operationId).toBeGreaterThan(0);
      for (const target of targets) {
        const rest = target.split('?')[0]!.slice('/api/v1'.length);
        expect(matchOperation(operations, rest)?.operation.operationId, target).toBe(op.operationId);
      }
    }
  });

  it('the API enumeration is the union of the operations, each target once', () => {
    const api = enumerateApi(site);
    expect(new Set(api).size).toBe(api.length);
    expect([...api].sort()).toEqual(operations.flatMap((op) => op.enumerate?.(site, '/api/v1') ?? []).sort());
    expect(api).toContain(`/api/v1/posts?tag=${site.tags[0]!.tag}`);
  });

  // llms.txt's token estimates (llmsTokenLabels) and the sitemap rely on it.
  it('the pages the sitemap and llms.txt list are the pages the model has, each once', () => {
    const model = new SiteModel(site);
    const listed = sitePages(model).map((p) => p.path);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...pagePaths(model)].sort());
  });

  it('the link check knows every page, twin and precomputed address, and nothing else', () => {
    const model = new SiteModel(site);
    const known = knownPaths(model);
    for (const page of pagePaths(model)) {
      expect(known.has(page), page).toBe(true);
      expect(known.has(twinPath(page)), twinPath(page)).toBe(true);
    }
    expect([...known].sort()).toEqual([...new Set(enumerate(model).map((t) => t.split('?')[0]!))].sort());
    expect(known.has('/blog/no-such-post')).toBe(false);
  });

  // The link check lists the targets before the site has its static files and redirects; the build walks that list.
  it('the targets listed once while the site was assembled are those of the finished site', () => {
    const fresh = families.flatMap((family) => family.enumerate(new SiteModel(built.site)));
    expect(enumerate(built)).toEqual(fresh);
    expect(targetsOf(built, families[0]!)).toBe(targetsOf(built, families[0]!));
  });
});
