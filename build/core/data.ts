// SiteData from the whole model: what the build and the tests answer with.
// The functions answer the same questions from precomputed files
// (runtime/edge.ts); a test holds the two to the same answers (D38, D55).
import { notFoundHtml, notFoundMarkdown } from './pages/not-found.js';
import { twinMarkdown } from './pages/routes.js';
import { postItem, postResource, projectResource } from './resources.js';
import type { SiteData } from './runtime.js';
import type { SiteModel } from './site-model.js';
import { pagePath } from './urls.js';

export function modelData(model: SiteModel): SiteData {
  const { site } = model;
  return {
    file: async () => null,
    posts: async (tag, offset, limit) => {
      const posts = tag === undefined ? site.posts : model.tagged(tag);
      return { total: posts.length, items: posts.slice(offset, offset + limit).map((p) => postItem(site, p)) };
    },
    post: async (slug) => {
      const post = model.post(slug);
      return post && postResource(site, post);
    },
    project: async (id) => {
      const project = site.projects.find((p) => p.id === id);
      return project && projectResource(site, project);
    },
    twin: async (page) => twinMarkdown(model, page),
    postTwin: async (uri) => {
      const post = site.posts.find((p) => postItem(site, p).markdown_url === uri);
      return post ? (twinMarkdown(model, pagePath.post(post.slug)) ?? `# ${post.title}\n\n${post.content_markdown}`) : null;
    },
    notFound: async (markdown) => (markdown ? notFoundMarkdown(site) : notFoundHtml(site)),
  };
}
