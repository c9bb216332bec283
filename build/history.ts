// What changed, for agents that come back (D61). Additions and updates come
// from the content's own dates where it has them (a post's date and
// updated); projects and services have none, so the build keeps a record of
// what it published (the history, in the cache beside the build state) and
// dates them by the build that first saw them or saw them change (those the
// first build saw have no known addition date, and are listed from their
// first change on). Removals can only come from that record: a build
// without one starts it, and says removals are known from its own day on.
import { hash as cryptoHash } from 'node:crypto';
import type { Change, ChangeLog, ChangeType, Site } from './core/model.js';
import { projectResource, serviceResource } from './core/resources.js';
import { apiBase } from './core/urls.js';

export interface HistoryItem {
  type: ChangeType;
  id: string;
  title: string;
  api_url: string;
  /** YYYY-MM-DD of the build that first published it; null when it was there before the record began. */
  first_seen: string | null;
  /** A hash of its API record, to see it change. */
  hash: string;
  /** YYYY-MM-DD of the last build that saw it change, or null. */
  changed: string | null;
}

export interface History {
  format: 1;
  /** The day of the first build of this record. */
  since: string;
  items: Record<string, HistoryItem>;
  removed: Record<string, Change>;
}

function hash(value: unknown): string {
  return cryptoHash('sha1', JSON.stringify(value), 'base64');
}

/** An item's address in the API of this build: a removed item's too, so a site that moved answers it (404) at its new host. */
const apiUrl = (site: Site, type: ChangeType, id: string) => `${apiBase(site)}/${type}s/${id}`;

function current(site: Site, today: string, previous: History | null): HistoryItem[] {
  // A post's record is its `updated` date: 10,000 posts share a few, each hashed once.
  const dates = new Map<string | null, string>();
  const dateHash = (updated: string | null) => {
    let h = dates.get(updated);
    if (h === undefined) dates.set(updated, (h = hash(updated)));
    return h;
  };
  const seen = (type: ChangeType, id: string, title: string, h: string, dated?: string): HistoryItem => {
    const before = previous?.items[`${type}:${id}`];
    const changed = !before ? null : before.hash !== h ? today : before.changed;
    // With no record, an undated item's addition is unknown, not "today".
    const first = dated ?? (before ? before.first_seen : previous ? today : null);
    return { type, id, title, api_url: apiUrl(site, type, id), first_seen: first, hash: h, changed };
  };
  return [
    // A post states its own dates: added on `date`, updated on `updated`.
    ...site.posts.map((p) => ({ ...seen('post', p.slug, p.title, dateHash(p.updated), p.date), changed: p.updated })),
    ...site.projects.map((p) => seen('project', p.id, p.title, hash(projectResource(site, p)))),
    ...site.services.map((s) => seen('service', s.id, s.title, hash(serviceResource(site, s)))),
  ];
}

const ORDER = { removed: 0, updated: 1, added: 2 } as const;

function newestFirst(a: Change, b: Change): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return ORDER[a.change] - ORDER[b.change];
}

/**
 * What recordChanges made for a site, kept with it: the build saves the very
 * record its published change log came from, without making it again (at
 * 10,000 posts, a hash per post: 0.25 s at the end of an edit).
 */
const made = new WeakMap<Site, { previous: History | null; result: { log: ChangeLog; history: History } }>();

/** The changes of `site` given the previous build's record, and the record this build leaves. */
export function recordChanges(site: Site, previous: History | null): { log: ChangeLog; history: History } {
  const memo = made.get(site);
  if (memo?.previous === previous) return memo.result;
  const result = changesOf(site, previous);
  made.set(site, { previous, result });
  return result;
}

function changesOf(site: Site, previous: History | null): { log: ChangeLog; history: History } {
  const today = site.built_at.slice(0, 10);
  const items = current(site, today, previous);
  const byKey = Object.fromEntries(items.map((i) => [`${i.type}:${i.id}`, i]));
  const removed: Record<string, Change> = {};
  for (const [key, change] of Object.entries(previous?.removed ?? {}))
    if (!byKey[key]) removed[key] = { ...change, api_url: apiUrl(site, change.type, change.id) };
  for (const [key, item] of Object.entries(previous?.items ?? {})) {
    if (!byKey[key])
      removed[key] = {
        type: item.type,
        id: item.id,
        title: item.title,
        change: 'removed',
        date: today,
        api_url: apiUrl(site, item.type, item.id),
      };
  }
  const entries: Change[] = [];
  for (const item of items) {
    const { type, id, title, api_url } = item;
    if (item.first_seen) entries.push({ type, id, title, change: 'added', date: item.first_seen, api_url });
    const updated = item.changed;
    if (updated && (!item.first_seen || updated > item.first_seen))
      entries.push({ type, id, title, change: 'updated', date: updated, api_url });
  }
  entries.push(...Object.values(removed));
  entries.sort(newestFirst);
  return {
    log: { entries, tracked_since: previous?.since ?? today },
    history: { format: 1, since: previous?.since ?? today, items: byKey, removed },
  };
}

/**
 * Whether `next` holds what `previous` does, so that the build need not
 * write its record again (at 10,000 posts, 3 MB of JSON). A field missing
 * and one undefined are the same: the file is JSON.
 */
export function sameHistory(previous: History | null, next: History): boolean {
  if (!previous || previous.format !== next.format || previous.since !== next.since) return false;
  return sameEntries(previous.items, next.items) && sameEntries(previous.removed, next.removed);
}

function sameEntries(a: Record<string, object>, b: Record<string, object>): boolean {
  const keys = Object.keys(b);
  if (Object.keys(a).length !== keys.length) return false;
  for (const key of keys) {
    const x = a[key] as Record<string, unknown> | undefined;
    const y = b[key] as Record<string, unknown>;
    if (!x) return false;
    for (const field in y) if (x[field] !== y[field]) return false;
    for (const field in x) if (x[field] !== y[field]) return false;
  }
  return true;
}
