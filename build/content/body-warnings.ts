// What a body publishes otherwise than its author may expect, said at its
// line rather than left to be found on the site:
// - raw HTML, which the pages leave out (D24) and the Markdown twin keeps: a
//   block of it with any text inside, a tag within a paragraph's text alone;
// - template syntax of other generators: Hugo's shortcodes ({{< figure >}},
//   {{% note %}}) and Jekyll's Liquid ({% highlight %}, {{ site.baseurl }}).
//   folio runs no templates, so each is published as the literal text. Code
//   blocks and inline code are other node types, so a post about Hugo that
//   shows a shortcode in code is left alone;
// - a post with no body at all, a page of a title and its facts.
import type { Parsed } from './frontmatter.js';
import type { RawHtml } from './markdown.js';
import type { Problem } from './problems.js';

/** A template tag in a text node: its first line, and where it starts in the body. */
export interface TemplateTag {
  text: string;
  line: number;
  column: number;
}

const TAG = /\{\{[<%][\s\S]*?[>%]\}\}|\{%[\s\S]*?%\}|\{\{-?\s*[\w.$"'][\s\S]*?\}\}/g;

/** The tags in a text node's value, placed by the node's start. */
export function templateTags(value: string, start: { line: number; column: number }): TemplateTag[] {
  if (!value.includes('{')) return [];
  const out: TemplateTag[] = [];
  for (const match of value.matchAll(TAG)) {
    const before = value.slice(0, match.index);
    const newline = before.lastIndexOf('\n');
    out.push({
      text: match[0].split('\n')[0]!,
      line: start.line + (before.match(/\n/g)?.length ?? 0),
      column: newline === -1 ? start.column + match.index : match.index - newline,
    });
  }
  return out;
}

/** The warning for one tag of `file`, whose body starts at `bodyLine`. */
export function templateWarning(file: string, tag: TemplateTag, bodyLine: number): Problem {
  const shown = tag.text.length > 60 ? `${tag.text.slice(0, 59)}…` : tag.text;
  const hugo = /^\{\{[<%]/.test(tag.text);
  const highlight = /^\{%-?\s*(highlight|endhighlight)\b/.test(tag.text);
  return {
    file,
    line: tag.line + bodyLine - 1,
    column: tag.column,
    message: `${hugo ? 'A Hugo shortcode' : 'A Liquid template tag'} is published as the text it is, since folio runs no templates: ${shown}`,
    hint: highlight
      ? 'Write the code as a fenced code block: ```ruby on the line before it and ``` on the line after, in place of {% highlight ruby %} and {% endhighlight %}.'
      : hugo
        ? 'Write it in Markdown: an image is ![What it shows](/img/photo.png), a link [text](/blog/slug). If the post shows the shortcode itself, put it in `code`.'
        : 'Write what it stands for: a link to a post is /blog/<slug>, {{ site.baseurl }} is nothing (links start at the site root). If the post shows the tag itself, put it in `code`.',
  };
}

/** The warning for raw HTML of `file` (Rendered.rawHtml), whose body starts at `bodyLine`. */
export function rawHtmlWarning(file: string, h: RawHtml, bodyLine: number): Problem {
  const shown = h.html.length > 60 ? `${h.html.slice(0, 59)}…` : h.html;
  return {
    file,
    line: h.line + bodyLine - 1,
    column: h.column,
    message: h.inline
      ? `A raw HTML tag is left out of the HTML page (the text around it stays): ${shown}`
      : `Raw HTML is left out of the HTML page, with any text inside it: ${shown}`,
    hint: 'Write it in Markdown (a list, emphasis, a blank line between paragraphs), or keep it for the Markdown twin alone, which shows it as written.',
  };
}

/** A post with nothing below its front-matter: published, as a title and its facts. */
export function emptyPostWarning(doc: Parsed): Problem {
  return {
    file: doc.source.file,
    // The closing ---, which the body would follow.
    line: Math.max(1, doc.bodyLine - 1),
    column: 1,
    message: 'This post has no body: its page, its Markdown twin and the feeds show the title and its facts alone.',
    hint: 'Write the post below the closing ---, or set draft: true until it is written.',
  };
}
