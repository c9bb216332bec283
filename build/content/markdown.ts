// One frozen unified processor, used for every document: each body is parsed
// once, and its HTML, summary, plain text and links all come from that tree.
import type { Element, ElementContent, Root as HastRoot } from 'hast';
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
import { collectImages, type ImageRef } from './image-refs.js';
import { templateTags, type TemplateTag } from './body-warnings.js';

const makeParser = () => unified().use(remarkParse).use(remarkGfm).freeze();

// Raw HTML is dropped by remark-rehype (no allowDangerousHtml); the sanitizer
// then removes javascript: URLs and on* attributes (D24). remark-rehype
// already prefixes footnote ids, so the sanitizer must not prefix them again.
// An image may be a data: URL (D44), which the pages' policy allows for images
// and an image cannot run; rehypePresentation keeps it for images alone.
const schema = {
  ...defaultSchema,
  clobber: [],
  clobberPrefix: '',
  protocols: { ...defaultSchema.protocols, src: [...(defaultSchema.protocols?.src ?? []), 'data'] },
};
const makeRenderer = () =>
  unified()
    .use(remarkRehype)
    .use(rehypeSanitize, schema)
    .use(rehypeHighlight, { detect: false, plainText: ['text', 'txt', 'ssh-config', 'dns'] })
    .use(rehypePresentation)
    .use(rehypeStringify)
    .freeze();

// Made on the first render: a build whose every record comes from the cache,
// and the commands that render nothing, never need them (freezing registers
// every highlighted language, a fifth of the CLI's start-up).
let parser: ReturnType<typeof makeParser> | undefined;
let renderer: ReturnType<typeof makeRenderer> | undefined;

/** Ids the page template uses; a heading never takes one of them. */
const RESERVED_IDS = new Set(['main', 'top', 'footnote-label']);

/**
 * What the page needs beyond plain HTML, added after the sanitizer (so only
 * our own attributes, never the author's): ids on headings for deep links,
 * keyboard-reachable scroll regions for wide tables and code blocks, which
 * scroll sideways on a phone (WCAG 2.1.1), column alignment as classes, and
 * lazily loaded images.
 */
function rehypePresentation() {
  return (tree: HastRoot) => {
    const used = new Set(RESERVED_IDS);
    visit(tree, 'element', (node: Element, index, parent) => {
      if (/^h[2-6]$/.test(node.tagName) && node.properties.id === undefined) {
        node.properties.id = uniqueId(slug(textOf(node)) || 'section', used);
      } else if (node.tagName === 'pre') {
        node.properties.tabIndex = 0;
      } else if (node.tagName === 'img') {
        const src = node.properties.src;
        // An image whose address the sanitizer removed (javascript:) or that is no image (data:text/html) keeps its
        // words and loses its target, as such a link does: an <img> without src is not valid HTML (D54).
        if (parent && index !== undefined && (typeof src !== 'string' || /^data:(?!image\/)/i.test(src))) {
          parent.children[index] = { type: 'text', value: String(node.properties.alt ?? '') };
          return undefined;
        }
        // Below-the-fold images should not hold up the page; a local image's
        // src stays a placeholder until the build resolves it (D44, images.ts).
        node.properties.loading = 'lazy';
        node.properties.decoding = 'async';
      } else if (node.tagName === 'table' && parent && index !== undefined) {
        const heads: string[] = [];
        visit(node, 'element', (cell: Element) => {
          if (cell.tagName === 'th') heads.push(textOf(cell));
          if (cell.tagName === 'th' || cell.tagName === 'td') alignAsClass(cell);
        });
        const label = heads.length ? `Table: ${heads.join(', ')}` : 'Table';
        const wrapper: Element = {
          type: 'element',
          tagName: 'div',
          properties: { className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: label },
          children: [node],
        };
        parent.children[index] = wrapper;
        return 'skip';
      }
      return undefined;
    });
  };
}

/** GFM column alignment as a class: `align` is obsolete HTML (D54), and the page CSP allows no style attribute. */
function alignAsClass(cell: Element): void {
  const align = cell.properties.align;
  if (align === undefined) return;
  delete cell.properties.align;
  if (align === 'right' || align === 'center') cell.properties.className = [`align-${align}`];
}

function textOf(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}

function uniqueId(base: string, used: Set<string>): string {
  let id = base;
  for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

/** Raw HTML in a body: its first line, where it starts, and whether it sits in a paragraph's text, where only its tags are left out. */
export interface RawHtml {
  html: string;
  line: number;
  column: number;
  inline: boolean;
}

/** The nodes whose children are blocks: raw HTML anywhere else is inline, a tag within text. */
const BLOCK_PARENTS: ReadonlySet<string> = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

export interface Link {
  url: string;
  line: number;
  column: number;
  /** For a site-root link ("/projects/x"): where its destination starts in the Markdown, so it can be made absolute (D53). */
  offset?: number;
  /** A definition only images refer to (`![alt][ref]`): an image's address, checked as one (D44). */
  image?: true;
}

type Point = { offset?: number };
type LinkNode = { type: string; url: string; children?: { position?: { end: Point } }[]; position?: { start: Point; end: Point } };

function isRootRelative(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/**
 * The offset of a link's or definition's destination in the source: after
 * the text's closing "](" of an inline link, after "]:" of a definition,
 * then any spaces and an opening "<". Null when the source does not read so
 * (a reference link, whose definition carries the destination).
 */
function destinationOffset(markdown: string, node: LinkNode): number | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  let at: number;
  if (node.type === 'definition') {
    at = markdown.indexOf(']:', start);
    if (at === -1 || at >= end) return null;
    at += 2;
  } else {
    const last = node.children?.[node.children.length - 1]?.position?.end.offset;
    at = last ?? start + 1;
    if (markdown.slice(at, at + 2) !== '](') return null;
    at += 2;
  }
  while (at < end && /\s/.test(markdown[at]!)) at++;
  if (markdown[at] === '<') at++;
  return markdown[at] === '/' && markdown[at + 1] !== '/' ? at : null;
}

export interface Rendered {
  /** With a placeholder src on each local image (see collectImages). */
  html: string;
  /** Local images in document order; `html` refers to them by index. */
  images: ImageRef[];
  /** Plain text of the whole body. */
  text: string;
  /** Plain text of the first paragraph. */
  firstParagraph: string;
  words: number;
  links: Link[];
  /** Raw HTML the pages leave out (D24), comments and inline closing tags aside. */
  rawHtml: RawHtml[];
  /** Hugo shortcodes and Liquid tags in the text, published as written (body-warnings.ts). */
  templates: TemplateTag[];
}

export function render(markdown: string): Rendered {
  parser ??= makeParser();
  renderer ??= makeRenderer();
  const tree = parser.parse(markdown) as Root;
  const links: Link[] = [];
  const rawHtml: RawHtml[] = [];
  const templates: TemplateTag[] = [];
  const definitions: { link: Link; id: string }[] = [];
  const linked = new Set<string>();
  const imaged = new Set<string>();
  // One walk for all: the tree of a long post is large. Its text is looked at only where a template tag may be.
  const kinds = ['link', 'definition', 'linkReference', 'imageReference', 'html'];
  if (/\{[{%]/.test(markdown)) kinds.push('text');
  visit(tree, kinds, (node, _index, parent) => {
    if (node.type === 'text') {
      const at = node.position?.start;
      templates.push(...templateTags((node as { value: string }).value, { line: at?.line ?? 1, column: at?.column ?? 1 }));
      return;
    }
    if (node.type === 'linkReference' || node.type === 'imageReference') {
      (node.type === 'linkReference' ? linked : imaged).add((node as { identifier: string }).identifier);
      return;
    }
    if (node.type === 'html') {
      const value = (node as { value: string }).value.trim();
      const at = node.position?.start;
      const inline = !BLOCK_PARENTS.has(parent?.type ?? 'root');
      // A comment is the author's note to self, which no reader is meant to see; an inline tag's closing tag repeats its opening's warning.
      if (!value.startsWith('<!--') && !(inline && value.startsWith('</')))
        rawHtml.push({ html: value.split('\n')[0]!, line: at?.line ?? 1, column: at?.column ?? 1, inline });
      return;
    }
    const n = node as { url: string; position?: { start: { line: number; column: number } } };
    const link: Link = { url: n.url, line: n.position?.start.line ?? 1, column: n.position?.start.column ?? 1 };
    const at = isRootRelative(n.url) ? destinationOffset(markdown, node as LinkNode) : null;
    if (at !== null) link.offset = at;
    if (node.type === 'definition') definitions.push({ link, id: (node as { identifier: string }).identifier });
    links.push(link);
  });
  for (const { link, id } of definitions) if (imaged.has(id) && !linked.has(id)) link.image = true;
  const images = collectImages(tree, markdown);
  const first = tree.children.find((c: RootContent) => c.type === 'paragraph');
  const text = toString(tree, { includeHtml: false });
  const hast = renderer.runSync(tree);
  return {
    html: renderer.stringify(hast),
    images,
    text,
    firstParagraph: first ? toString(first, { includeHtml: false }).replace(/\s+/g, ' ').trim() : '',
    words: text.split(/\s+/).filter(Boolean).length,
    links,
    rawHtml,
    templates,
  };
}

/** A summary of at most `max` characters, cut at a word boundary. */
export function clip(text: string, max = 280): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[\s,;:.]+$/, '')}…`;
}
