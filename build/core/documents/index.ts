// The machine-readable addresses (D25–D35): each one a path, a media type and
// a pure function of the site model. The build precomputes them all into dist/.
import type { Family } from '../family.js';
import { CONTENT_TYPES, usageHeaders } from '../headers.js';
import { jsonText, type Frame, type Headers, type Sections } from '../http.js';
import type { Site } from '../model.js';
import type { SiteModel } from '../site-model.js';
import { agentInstructions } from './agent-instructions.js';
import {
  aiCatalog,
  API_CATALOG_PATH,
  apiCatalog,
  apiCatalogLink,
  MEDIA,
  SERVER_CARD_PATH,
  serverCard,
  serverJson,
  WELL_KNOWN_SERVER_CARD_PATH,
} from './catalogs.js';
import { atomFrame, atomPostSection, atomSections, jsonFeedFrame, jsonFeedPostSection, jsonFeedSections } from './feeds.js';
import {
  llmsFullFrame,
  llmsFullPageSection,
  llmsFullPostSection,
  llmsFullSections,
  llmsTokenLabels,
  llmsTxtFrame,
  llmsTxtPostLine,
  llmsTxtSections,
} from './llms.js';
import { openApiDocument } from './openapi.js';
import { documentReply } from './reply.js';
import { robotsTxt } from './robots.js';
import { sitemapXml } from './sitemap.js';
import { toYaml } from './yaml.js';

interface Rendered {
  /** The model is there for the documents that read its page table or twins (llms files, sitemap). */
  render(site: Site, model: SiteModel): string;
  sections?: never;
  /**
   * What it shows of posts' bodies, as text (llms.txt: each twin's token
   * estimate, D53): an incremental build asks it again after a body edit
   * only when this is not what the previous build's showed.
   */
  bodies?: (model: SiteModel) => string;
}

/**
 * A document that shows posts' bodies (their Markdown, HTML or twin), not
 * only the fields lists show, comes as sections, one per post (Sections in
 * http.ts): after a body edit an incremental build renders the edited post's
 * section again and takes the others from the previous file (D56).
 */
interface Sectioned {
  render?: never;
  /** As a rendered document's, for one whose frame shows more of the bodies than its sections do: an edit that changes it makes the frame again. */
  bodies?: (model: SiteModel) => string;
  sections: {
    all(site: Site, model: SiteModel): Sections;
    post(site: Site, index: number, model: SiteModel): string;
    /** The section of the page at `path`, for a document whose keys name pages too (Sections). */
    page?(model: SiteModel, path: string): string;
    /** The text around the keyed sections alone (Frame), when it may change while they do not (a new day; a listed field, such as the feeds' newest date; for llms.txt, llms-full.txt's estimate); without one, the document is made whole. */
    frame?(site: Site, model: SiteModel): Frame;
  };
}

type Document = { path: string; type: string; headers?(site: Site): Headers } & (Rendered | Sectioned);

const json = (build: (site: Site) => unknown) => (site: Site) => jsonText(build(site));

export const documents: readonly Document[] = [
  { path: '/openapi.json', type: CONTENT_TYPES.json, render: json(openApiDocument) },
  { path: '/openapi.yaml', type: CONTENT_TYPES.yaml, render: (site) => toYaml(openApiDocument(site)) },
  {
    path: '/llms.txt',
    type: CONTENT_TYPES.text,
    sections: {
      all: (_, model) => llmsTxtSections(model),
      post: (_, index, model) => llmsTxtPostLine(model, index),
      frame: (_, model) => llmsTxtFrame(model),
    },
    bodies: llmsTokenLabels,
  },
  {
    path: '/llms-full.txt',
    type: CONTENT_TYPES.text,
    headers: usageHeaders,
    sections: {
      all: (_, model) => llmsFullSections(model),
      post: (_, index, model) => llmsFullPostSection(model, index),
      page: llmsFullPageSection,
      frame: (_, model) => llmsFullFrame(model),
    },
  },
  { path: '/sitemap.xml', type: CONTENT_TYPES.xml, render: (_, model) => sitemapXml(model) },
  {
    path: '/feed.xml',
    type: CONTENT_TYPES.atom,
    headers: usageHeaders,
    sections: { all: atomSections, post: atomPostSection, frame: atomFrame },
  },
  {
    path: '/feed.json',
    type: CONTENT_TYPES.feedJson,
    headers: usageHeaders,
    sections: { all: jsonFeedSections, post: jsonFeedPostSection, frame: jsonFeedFrame },
  },
  { path: '/robots.txt', type: CONTENT_TYPES.text, render: robotsTxt },
  { path: API_CATALOG_PATH, type: CONTENT_TYPES.linkset, render: json(apiCatalog), headers: (site) => ({ link: apiCatalogLink(site) }) },
  { path: WELL_KNOWN_SERVER_CARD_PATH, type: MEDIA.serverCard, render: json(serverCard) },
  { path: SERVER_CARD_PATH, type: MEDIA.serverCard, render: json(serverCard) },
  { path: '/server.json', type: CONTENT_TYPES.json, render: json(serverJson) },
  { path: '/.well-known/ai-catalog.json', type: MEDIA.aiCatalog, render: json(aiCatalog) },
  { path: '/.well-known/agent-instructions', type: CONTENT_TYPES.markdown, render: agentInstructions },
];

const byPath = new Map(documents.map((d) => [d.path, d]));

/** The documents that show posts' bodies; every other shared address shows only the fields lists show. */
export const bodyDocuments: ReadonlySet<string> = new Set(documents.filter((d) => d.sections || d.bodies).map((d) => d.path));

/** What the document at `path` shows of posts' bodies beyond sections (see Document.bodies), or null when it shows nothing, or all of them in sections. */
export function bodiesShown(model: SiteModel, path: string): string | null {
  return byPath.get(path)?.bodies?.(model) ?? null;
}

/** The section of the document at `path` keyed `key` (Sections): a post's by its slug, a page's by its path; null for another document. */
export function keyedSection(model: SiteModel, path: string, key: string): string | null {
  const sections = byPath.get(path)?.sections;
  if (key.startsWith('/')) return sections?.page?.(model, key) ?? null;
  const at = model.posts.bySlug.get(key);
  return at === undefined ? null : (sections?.post(model.site, at, model) ?? null);
}

/** Whether the frame of the document at `path` shows what its sections do not of posts' bodies (llms.txt: llms-full.txt's estimate), so that a body edit makes it again. */
export function frameShowsBodies(path: string): boolean {
  const doc = byPath.get(path);
  return doc?.sections !== undefined && doc.bodies !== undefined;
}

/** The text around the keyed sections of the document at `path` (Frame), or null when it has none to give. */
export function documentFrame(model: SiteModel, path: string): Frame | null {
  return byPath.get(path)?.sections?.frame?.(model.site, model) ?? null;
}

export const documentsFamily: Family = {
  name: 'documents',
  // respond() has already answered every method but GET and HEAD (D15).
  respond: (req, rt) => {
    const doc = byPath.get(req.path);
    if (!doc) return null;
    if (!doc.sections) return documentReply(doc.type, doc.render(rt.site, rt.model), doc.headers?.(rt.site));
    const sections = doc.sections.all(rt.site, rt.model);
    return { ...documentReply(doc.type, sections.texts.join(''), doc.headers?.(rt.site)), sections };
  },
  enumerate: () => documents.map((d) => d.path),
};
