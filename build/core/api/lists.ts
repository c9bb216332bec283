// What several operations share: a paged list answer (D4, D8) and the
// targets the build precomputes for lists and for availability (D38, D60).
import type { Site } from '../model.js';
import { addMonths, horizon } from '../availability.js';
import type { OperationContext } from './operation.js';
import { LIMIT } from './parameters.js';

/** A list answer with paging (D4, D8): `items` is the page itself, `total` the size of the whole list. */
export function page(
  ctx: Pick<OperationContext, 'canonical' | 'self'>,
  items: readonly unknown[],
  total: number,
  limit: number,
  offset: number,
  meta: Record<string, unknown>,
) {
  const base = new URLSearchParams(ctx.canonical);
  base.delete('offset');
  const at = (o: number) => {
    const q = new URLSearchParams(base);
    if (o > 0) q.set('offset', String(o));
    return ctx.self(q.toString());
  };
  return {
    data: items,
    meta: { total, limit, offset, ...meta },
    links: {
      self: ctx.self(ctx.canonical),
      next: offset + limit < total ? at(offset + limit) : null,
      prev: offset > 0 ? at(Math.max(0, offset - limit)) : null,
    },
  };
}

export function availabilityTargets(site: Site, path: string): string[] {
  const { from, to } = horizon(site);
  const months: string[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) months.push(m);
  const services = site.services.map((s) => `service=${s.id}`);
  const queries = [...services, ...months.map((m) => `month=${m}`), ...services.flatMap((s) => months.map((m) => `${s}&month=${m}`))];
  return [path, ...queries.map((q) => `${path}?${q}`)];
}

/** The targets of the default pages (no limit, offsets by the default limit) of a list of `total` items, with an optional filter query. */
export function pages(path: string, total: number, filter: string): string[] {
  const size = LIMIT.schema.default as number;
  const targets: string[] = [];
  for (let offset = 0; offset === 0 || offset < total; offset += size) targets.push(pageTarget(path, offset, filter));
  return targets;
}

/** The target of the default page of such a list that holds its item at `position` (from 0). */
export function pageHolding(path: string, position: number, filter: string): string {
  const size = LIMIT.schema.default as number;
  return pageTarget(path, position - (position % size), filter);
}

function pageTarget(path: string, offset: number, filter: string): string {
  const query = [filter, offset ? `offset=${offset}` : ''].filter(Boolean).join('&');
  return query ? `${path}?${query}` : path;
}
