// The machine-readable addresses (D25–D35): each one a path, a media type and
// a pure function of the site model. The build precomputes them all into dist/.
import type { Family } from '../family.js';
import { CONTENT_TYPES } from '../headers.js';
import { jsonText, type Headers } from '../http.js';
import type { Site } from '../model.js';
import type { SiteModel } from '../site-model.js';
import { agentInstructions } from './agent-instructions.js';
import { aiCatalog, API_CATALOG_PATH, apiCatalog, apiCatalogLink, MEDIA, SERVER_CARD_PATH, serverCard, serverJson, WELL_KNOWN_SERVER_CARD_PATH } from './catalogs.js';
import { atomFeed, jsonFeed } from './feeds.js';
import { llmsFullTxt, llmsTxt } from './llms.js';
import { openApiDocument } from './openapi.js';
import { documentReply } from './reply.js';
import { robotsTxt } from './robots.js';
import { sitemapXml } from './sitemap.js';
import { toYaml } from './yaml.js';

interface Document {
  path: string;
  type: string;
  /** The model is there for the documents that read its page table or twins (llms files, sitemap). */
  render(site: Site, model: SiteModel): string;
  headers?(site: Site): Headers;
}

const json = (build: (site: Site) => unknown) => (site: Site) => jsonText(build(site));

export const documents: readonly Document[] = [
  { path: '/openapi.json', type: CONTENT_TYPES.json, render: json(openApiDocument) },
  { path: '/openapi.yaml', type: CONTENT_TYPES.yaml, render: (site) => toYaml(openApiDocument(site)) },
  { path: '/llms.txt', type: CONTENT_TYPES.text, render: (_, model) => llmsTxt(model) },
  { path: '/llms-full.txt', type: CONTENT_TYPES.text, render: (_, model) => llmsFullTxt(model) },
  { path: '/sitemap.xml', type: CONTENT_TYPES.xml, render: (_, model) => sitemapXml(model) },
  { path: '/feed.xml', type: CONTENT_TYPES.atom, render: atomFeed },
  { path: '/feed.json', type: CONTENT_TYPES.feedJson, render: json(jsonFeed) },
  { path: '/robots.txt', type: CONTENT_TYPES.text, render: robotsTxt },
  { path: API_CATALOG_PATH, type: CONTENT_TYPES.linkset, render: json(apiCatalog), headers: (site) => ({ link: apiCatalogLink(site) }) },
  { path: WELL_KNOWN_SERVER_CARD_PATH, type: MEDIA.serverCard, render: json(serverCard) },
  { path: SERVER_CARD_PATH, type: MEDIA.serverCard, render: json(serverCard) },
  { path: '/server.json', type: CONTENT_TYPES.json, render: json(serverJson) },
  { path: '/.well-known/ai-catalog.json', type: MEDIA.aiCatalog, render: json(aiCatalog) },
  { path: '/.well-known/agent-instructions', type: CONTENT_TYPES.markdown, render: agentInstructions },
];

const byPath = new Map(documents.map((d) => [d.path, d]));

export const documentsFamily: Family = {
  name: 'documents',
  // respond() has already answered every method but GET and HEAD (D15).
  respond: (req, rt) => {
    const doc = byPath.get(req.path);
    if (!doc) return null;
    return documentReply(doc.type, doc.render(rt.site, rt.model), doc.headers?.(rt.site));
  },
  enumerate: () => documents.map((d) => d.path),
};
