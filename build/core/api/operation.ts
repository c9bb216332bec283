// What an API operation is (D7): its description as data, its handler, and
// the request targets the build answers ahead of time (D38).
import type { ErrorCode } from '../errors.js';
import type { Req } from '../http.js';
import type { Site } from '../model.js';
import type { ParamSpec, ParamValues } from '../params.js';
import type { Runtime } from '../runtime.js';
import type { SchemaName } from '../schemas.js';
import type { SiteModel } from '../site-model.js';

export interface OperationContext {
  site: Site;
  runtime: Runtime;
  req: Req;
  version: string;
  values: ParamValues;
  pathParams: Record<string, string>;
  /** Canonical query of this request (defaults left out, declared order). */
  canonical: string;
  /** Absolute URL of this operation's path with the given canonical query. */
  self(query: string): string;
}

export type Outcome = { body: unknown; cache?: 'content' | 'computed' } | { error: ErrorCode; message: string; hint: string };

export interface Operation {
  operationId: string;
  /** Relative to the version base, "" for the discovery document. */
  path: string;
  summary: string;
  description: string;
  parameters: readonly ParamSpec[];
  /** The 200 response schema, by its name in core/schemas. */
  schema: SchemaName;
  /** Error codes this operation can answer, besides the ones every operation can. */
  errors: readonly ErrorCode[];
  /** An item's address whose former ids answer 301 to the current one (an alias, D48). */
  moves?: true;
  handle(ctx: OperationContext): Outcome | Promise<Outcome>;
  /**
   * Every request target of this operation the build answers ahead of time
   * (D38), under `base` (the version's path, "/api/v1"); none when it is
   * answered only at request time.
   */
  enumerate?(site: Site, base: string): string[];
  /** Of the targets `enumerate` names, those that show the posts at `posts` (Family.listings); without it, any may show any post. */
  showing?(model: SiteModel, base: string, posts: readonly number[]): string[];
}
