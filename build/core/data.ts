// SiteData from the whole model: what the build and the tests answer with.
// The functions answer the same questions from precomputed files
// (runtime/edge.ts); a test holds the two to the same answers (D38, D55).
import type { Site } from './model.js';
import { notFoundHtml, notFoundMarkdown } from './pages/not-found.js';
import { twinMarkdown } from './pages/routes.js';
import { postIndex, taggedPosts } from './post-index.js';
import { postItem, postResource, projectResource } from './resources.js';
import type { SiteData } from './runtime.js';
import { pagePath } from './urls.js';

export function modelData(site: Site): SiteData {
  return {
    file: async () => null,
    posts: async (tag, offset, limit) => {
      const posts = tag === undefined ? site.posts : taggedPosts(site, tag);
      return { total: posts.length, items: posts.slice(offset, offset + limit).map((p) => postItem(site, p)) };
    },
    post: async (slug) => {
      const at = postIndex(site).bySlug.get(slug);
      return at === undefined ? undefined : postResource(site, site.posts[at]!);
    },
    project: async (id) => {
      const project = site.projects.find((p) => p.id === id);
      return project && projectResource(site, project);
    },
    twin: async (page) => twinMarkdown(site, page),
    postTwin: async (uri) => {
      const post = site.posts.find((p) => postItem(site, p).markdown_url === uri);
      return post ? (twinMarkdown(site, pagePath.post(post.slug)) ?? `# ${post.title}\n\n${post.content_markdown}`) : null;
    },
    notFound: async (markdown) => (markdown ? notFoundMarkdown(site) : notFoundHtml(site)),
  };
}
