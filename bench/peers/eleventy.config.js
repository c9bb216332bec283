// Eleventy 3.1.7 as a peer: the same Markdown files folio reads, rendered to
// HTML pages through one small layout, doing the work folio does (D57):
// fenced code is highlighted (@11ty/eleventy-plugin-syntaxhighlight, Prism,
// as folio highlights with highlight.js) and footnotes are rendered
// (markdown-it-footnote, as folio renders GFM footnotes). Markdown is not run
// through a template engine first (markdownTemplateEngine: false), so
// Eleventy does what folio does: Markdown in, HTML out.
import syntaxHighlight from '@11ty/eleventy-plugin-syntaxhighlight';
import markdownItFootnote from 'markdown-it-footnote';

export default function (eleventyConfig) {
  eleventyConfig.setTemplateFormats(['md']);
  // The corpora live in a gitignored folder; Eleventy must not skip them.
  eleventyConfig.setUseGitIgnore(false);
  eleventyConfig.addPlugin(syntaxHighlight);
  eleventyConfig.amendLibrary('md', (md) => md.use(markdownItFootnote));
  eleventyConfig.addGlobalData('layout', 'page.html');
  eleventyConfig.addTemplate(
    '_includes/page.html',
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{ title }}</title></head>
<body><header><a href="/">Bench Consulting</a></header>
<main><article><h1>{{ title }}</h1>{% if date %}<p><time>{{ date | date: "%Y-%m-%d" }}</time></p>{% endif %}
{{ content }}</article></main></body>
</html>
`,
  );
  return { markdownTemplateEngine: false, htmlTemplateEngine: 'liquid' };
}
