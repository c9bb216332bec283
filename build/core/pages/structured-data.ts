// Structured data (D49): one JSON-LD graph per page, built from the model the
// API serves, so search engines read the same facts as agents do. Each page
// builder asks for its graph here; nothing is written by hand per page.
import type { Post, Project, Service, Site } from '../model.js';
import { absolute, pagePath } from '../urls.js';
import { earliestStart } from '../availability.js';

export type JsonLd = Record<string, unknown>;

const CONTEXT = 'https://schema.org';

export function personId(site: Site): string {
  return `${absolute(site, pagePath.about())}#person`;
}

/** The consultant, whole (home and about) or as a reference with a name and URL (everywhere else). */
export function person(site: Site, whole = false): JsonLd {
  const { profile } = site;
  const ref = { '@type': 'Person', '@id': personId(site), name: profile.name, url: absolute(site, pagePath.about()) };
  if (!whole) return ref;
  const links = Object.entries(profile.contact)
    .filter(
      ([key, value]) =>
        key !== 'email' && key !== 'calendar' && /^https?:\/\//.test(value) && !value.startsWith(`${site.config.site_url}/`),
    )
    .map(([, value]) => value);
  return {
    ...ref,
    jobTitle: profile.headline,
    description: profile.headline,
    email: `mailto:${profile.contact.email}`,
    homeLocation: { '@type': 'Place', name: profile.location },
    knowsAbout: profile.expertise,
    ...(profile.photo_url ? { image: profile.photo_url } : {}),
    ...(links.length ? { sameAs: links } : {}),
  };
}

function license(site: Site): JsonLd {
  return site.config.license ? { license: site.config.license.url } : {};
}

/** A service as schema.org `Service`: on the services list, in the home page's offer catalog and on a service's own page. */
export function serviceNode(site: Site, service: Service, url = absolute(site, pagePath.service(service.id))): JsonLd {
  return {
    '@type': 'Service',
    '@id': url,
    name: service.title,
    description: service.summary,
    url,
    serviceType: service.title,
    audience: service.best_fit.map((fit) => ({ '@type': 'Audience', audienceType: fit })),
    provider: person(site),
  };
}

function breadcrumbs(site: Site, trail: readonly [name: string, path: string][]): JsonLd {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: [['Home', pagePath.home()] as const, ...trail].map(([name, path], i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name,
      item: absolute(site, path),
    })),
  };
}

function graph(...nodes: JsonLd[]): JsonLd {
  return { '@context': CONTEXT, '@graph': nodes };
}

/**
 * A service as an Offer, with what D60 states of it where schema.org has a
 * place: when it can start, its formats and rate band, and where to book.
 * A service the engagements leave out is listed without a start.
 */
function offer(site: Site, service: Service): JsonLd {
  const a = site.profile.availability;
  const engagement = a.engagements.find((e) => e.service === service.id);
  const offered = !a.engagements.length || engagement !== undefined;
  const start = offered ? earliestStart(site) : null;
  const terms = engagement ? [engagement.formats.join(', '), engagement.rate_band].filter(Boolean).join('; ') : '';
  return {
    '@type': 'Offer',
    itemOffered: serviceNode(site, service),
    ...(start ? { availabilityStarts: start } : {}),
    ...(terms ? { description: terms } : {}),
    ...(offered && a.booking_url ? { url: a.booking_url } : {}),
  };
}

export function homeData(site: Site): JsonLd {
  const home = absolute(site, pagePath.home());
  return graph(
    {
      '@type': 'WebSite',
      '@id': `${home}#website`,
      url: home,
      name: site.config.title,
      description: site.config.description,
      inLanguage: site.config.language,
      publisher: { '@id': personId(site) },
      ...license(site),
    },
    person(site, true),
    {
      '@type': 'ProfessionalService',
      '@id': `${home}#organization`,
      name: site.config.title,
      description: site.config.description,
      url: home,
      founder: { '@id': personId(site) },
      hasOfferCatalog: {
        '@type': 'OfferCatalog',
        name: 'Services',
        url: absolute(site, pagePath.services()),
        itemListElement: site.services.map((s) => offer(site, s)),
      },
    },
  );
}

export function aboutData(site: Site): JsonLd {
  const url = absolute(site, pagePath.about());
  return graph({
    '@type': 'ProfilePage',
    '@id': url,
    url,
    name: `About ${site.profile.name}`,
    inLanguage: site.config.language,
    mainEntity: person(site, true),
  });
}

export function postData(site: Site, post: Post): JsonLd {
  const url = absolute(site, pagePath.post(post.slug));
  return graph(
    {
      '@type': 'BlogPosting',
      '@id': url,
      url,
      mainEntityOfPage: url,
      headline: post.title,
      description: post.summary,
      datePublished: post.date,
      dateModified: post.updated ?? post.date,
      author: person(site),
      keywords: post.tags,
      inLanguage: site.config.language,
      ...(post.image ? { image: post.image.url } : {}),
      isPartOf: { '@type': 'Blog', '@id': absolute(site, pagePath.blog()), name: `${site.profile.name}: Writing` },
      ...license(site),
    },
    breadcrumbs(site, [
      ['Writing', pagePath.blog()],
      [post.title, pagePath.post(post.slug)],
    ]),
  );
}

export function projectData(site: Site, project: Project): JsonLd {
  const url = absolute(site, pagePath.project(project.id));
  return graph(
    {
      '@type': 'CreativeWork',
      '@id': url,
      url,
      name: project.title,
      description: project.summary,
      creator: person(site),
      keywords: project.tags,
      creativeWorkStatus: project.status,
      inLanguage: site.config.language,
      ...(project.started ? { dateCreated: project.started } : {}),
      ...(project.started || project.ended ? { temporalCoverage: `${project.started ?? '..'}/${project.ended ?? '..'}` } : {}),
      // No license: this node is the project itself (a product, client work), which the writing's license (D51) does not cover.
      ...(project.url ? { sameAs: project.url } : {}),
    },
    breadcrumbs(site, [
      ['Projects', pagePath.projects()],
      [project.title, pagePath.project(project.id)],
    ]),
  );
}

/** A list page (services, writing, a tag, projects, developers): its trail, and the items it lists when they are things of their own. */
export function listData(site: Site, trail: readonly [name: string, path: string][], items: JsonLd[] = []): JsonLd {
  return graph(breadcrumbs(site, trail), ...items);
}

export function servicesData(site: Site): JsonLd {
  return listData(
    site,
    [['Services', pagePath.services()]],
    site.services.map((s) => serviceNode(site, s)),
  );
}

/** A service's own page (D47): the Service with its provider, under the services list. */
export function serviceData(site: Site, service: Service): JsonLd {
  return listData(
    site,
    [
      ['Services', pagePath.services()],
      [service.title, pagePath.service(service.id)],
    ],
    [serviceNode(site, service)],
  );
}

// In a script element, "</script" ends the element and "<!--" changes how the
// parser looks for that end; escaping "<" and ">" rules both out. "&" is
// escaped too (XHTML readers), and U+2028/2029, which old JavaScript parsers
// took for line ends. Each escape is still the same JSON string.
const UNSAFE = /[<>&\u2028\u2029]/g;

/** JSON for a `<script type="application/ld+json">` element: parses to `data`, never closes the element. */
export function jsonLdText(data: JsonLd): string {
  return JSON.stringify(data).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
