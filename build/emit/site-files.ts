// The files of an output beside its responses: content/static/ (D43), the
// not-found page static hosts answer unknown paths with (D23), and the
// images under /media/ (D44, D52), each routed in the manifest with its headers.
import { usageHeaders } from '../core/headers.js';
import { request } from '../core/http.js';
import { staticHeaders } from '../core/media-types.js';
import type { Site } from '../core/model.js';
import { respond } from '../core/respond.js';
import type { Runtime } from '../core/runtime.js';
import type { BuildState } from './build-state.js';
import type { EmitOptions, Sink } from './emit-options.js';
import type { Ledger } from './ledger.js';

export async function writeSiteFiles(
  site: Site,
  rt: Runtime,
  ledger: Ledger,
  sink: Sink,
  options: EmitOptions,
  previous: BuildState | null,
): Promise<void> {
  const { manifest, state, written, kept } = ledger;
  // Each static file at its own path with its type; assembleSite made sure no response has it.
  for (const f of site.static) {
    if (!options.readStatic) throw new Error(`folio: ${f.path} is a static file, but emit() was given no readStatic to read it with.`);
    const file = f.path.slice(1);
    await ledger.extra(file, await options.readStatic(f.path));
    manifest.routes.set(f.path, [file, ledger.wholeSet(staticHeaders(f.content_type))]);
  }
  const missing = await respond(request('GET', '/404', { accept: 'text/html' }), rt);
  if (missing.body) {
    await ledger.extra('404.html', missing.body);
    manifest.fallbacks['/*'] = { file: '404.html', status: 404, header_set: ledger.wholeSet(missing.headers) };
  }
  // The images are the writing's as much as its text: the author's AI preferences go with them (D52).
  const usage = usageHeaders(site);
  // Fingerprinted: a name the previous build had holds the same bytes, so it is reused unread.
  for (const m of options.media ?? []) {
    manifest.routes.set(`/${m.path}`, [m.path, ledger.wholeSet({ ...m.headers, ...usage })]);
    ledger.bytes += m.size;
    state.extras.set(m.path, { hash: m.path, size: m.size });
    kept.add(m.path);
    if (previous?.extras.get(m.path)?.hash === m.path) await sink.reuse(m.path);
    else {
      written.push(m.path);
      await sink.write(m.path, await m.read());
    }
  }
}
