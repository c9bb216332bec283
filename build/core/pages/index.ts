// HTML pages and their Markdown twins (D20–D24). Owned by the pages work.
import type { Family } from '../family.js';
import { utf8, type Reply, type Req } from '../http.js';
import type { Site } from '../model.js';

export const pagesFamily: Family = {
  name: 'pages',
  respond: () => null,
  enumerate: () => [],
};

export function notFoundPage(_req: Req, _site: Site): Reply {
  return { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: utf8('<!doctype html><title>Not found</title><h1>Not found</h1>\n') };
}
