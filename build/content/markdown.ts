// One frozen unified processor, used for every document: each body is parsed
// once, and its HTML, summary, plain text and links all come from that tree.
import type { Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

const parser = unified().use(remarkParse).use(remarkGfm).freeze();

// Raw HTML is dropped by remark-rehype (no allowDangerousHtml); the sanitizer
// then removes javascript: URLs and on* attributes (D24). remark-rehype
// already prefixes footnote ids, so the sanitizer must not prefix them again.
const schema = { ...defaultSchema, clobber: [], clobberPrefix: '' };
const renderer = unified()
  .use(remarkRehype)
  .use(rehypeSanitize, schema)
  .use(rehypeHighlight, { detect: false })
  .use(rehypeStringify)
  .freeze();

export interface Link {
  url: string;
  line: number;
  column: number;
}

export interface Rendered {
  html: string;
  /** Plain text of the whole body. */
  text: string;
  /** Plain text of the first paragraph. */
  firstParagraph: string;
  words: number;
  links: Link[];
}

export function render(markdown: string): Rendered {
  const tree = parser.parse(markdown) as Root;
  const links: Link[] = [];
  visit(tree, ['link', 'definition'], (node) => {
    const n = node as { url: string; position?: { start: { line: number; column: number } } };
    links.push({ url: n.url, line: n.position?.start.line ?? 1, column: n.position?.start.column ?? 1 });
  });
  const first = tree.children.find((c: RootContent) => c.type === 'paragraph');
  const text = toString(tree, { includeHtml: false });
  const hast = renderer.runSync(tree);
  return {
    html: renderer.stringify(hast),
    text,
    firstParagraph: first ? toString(first, { includeHtml: false }).replace(/\s+/g, ' ').trim() : '',
    words: text.split(/\s+/).filter(Boolean).length,
    links,
  };
}

/** A summary of at most `max` characters, cut at a word boundary. */
export function clip(text: string, max = 280): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[\s,;:.]+$/, '')}…`;
}
