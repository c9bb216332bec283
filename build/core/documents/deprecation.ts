// The deprecation notice of D19, written once: the OpenAPI description,
// llms.txt and the developer page repeat the same words (D19).
import type { Site, VersionState } from '../model.js';
import { apiBase } from '../urls.js';

/** The notice for a version that is not current, or null while it is. */
export function deprecationNotice(site: Site, state: VersionState): string | null {
  if (state.status === 'current') return null;
  const policy = `${site.config.site_url}/developers#versioning`;
  const move = state.successor
    ? `Move to ${state.successor} at ${apiBase(site, state.successor)}.`
    : `The versioning policy at ${policy} says what replaces it.`;
  if (state.status === 'sunset') return `API ${state.version} was retired on ${state.sunset} and answers 410 Gone. ${move}`;
  const until = state.sunset ? `stops responding on ${state.sunset}, after which it answers 410 Gone` : 'has no sunset date yet';
  return `API ${state.version} is deprecated since ${state.deprecated} and ${until}. It keeps serving unchanged until then. ${move}`;
}

/** Every version's notice, oldest version first. */
export function deprecationNotices(site: Site): string[] {
  return Object.values(site.versions)
    .map((state) => deprecationNotice(site, state))
    .filter((notice): notice is string => notice !== null);
}
