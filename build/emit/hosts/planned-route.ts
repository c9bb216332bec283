// A route of the manifest as the host printers read it (plan.ts).
import { routeHeaders, type FileRoute as ManifestRoute } from '../../core/files.js';
import type { Headers } from '../../core/http.js';
import type { FileRoute, HostPlan } from './plan.js';

/**
 * A route as the printers see it. Its headers are merged when first read,
 * and the route is then noted in the plan's `headersRead`: the host files follow
 * from the manifest but its routes' own headers (a twin's token estimate),
 * and the own headers, or none, of the routes read (hosts/index.ts HostsMemo).
 */
export class PlannedRoute implements FileRoute {
  #headers: Headers | undefined;
  constructor(
    readonly path: string,
    private readonly entry: ManifestRoute,
    private readonly plan: HostPlan,
  ) {}

  get file(): string {
    return this.entry[0];
  }

  get headers(): Headers {
    if (!this.#headers) {
      this.plan.headersRead.add(this.path);
      this.#headers = routeHeaders(this.plan.manifest.header_sets, this.entry);
    }
    return this.#headers;
  }
}
