// A document written once as a list of sections of blocks, rendered both to
// HTML and to Markdown, so a page and its twin cannot say different things
// (D21). Text is inline Markdown: `code`, [text](url), <url>, **strong** and
// backslash escapes (as mdText() writes them).
import { html, escapeHtml, Html } from './html.js';

/** Inline Markdown, written by hand or made safe with mdText() where it carries content. */
export type Inline = string;

/** A table cell: one line, or several (one per line in HTML, comma-separated in Markdown). */
export type Cell = Inline | { lines: Inline[]; muted?: Inline };

export type Block =
  | { p: Inline }
  | { list: Inline[]; ordered?: boolean }
  | { facts: [label: string, value: Inline][] }
  | { table: { label: string; head: string[]; rows: Cell[][]; nowrap?: number } }
  | { params: { name: string; where: string; description: Inline; schema: Inline }[] }
  | { code: string; language?: string }
  | { heading: string; id: string }
  /** A subsection headed by a literal (an endpoint, shown as code on the page) and a tag (its operation id). */
  | { sub: { id: string; code: string; tag: string; className: string; blocks: Block[] } };

export interface DocSection {
  id: string;
  title: string;
  blocks: Block[];
  /** The section element carries the id and the heading `${id}-title` (for an id that links point at). */
  idOnSection?: boolean;
}

// ----- HTML -----

const INLINE = /\\([!-/:-@[-`{-~])|`([^`]*)`|\[((?:`[^`]*`|[^\]])*)\]\(([^)\s]+)\)|<(https?:\/\/[^>\s]+)>|\*\*([^*]+)\*\*/g;

/**
 * Inline Markdown as HTML, everything else escaped. `href` maps a link's URL,
 * e.g. to make the site's own addresses root-relative.
 */
export function inlineHtml(text: Inline, href: (url: string) => string = (u) => u): Html {
  // Element content: quotes need no escaping there.
  const escapeText = (t: string) => t.replace(/[&<>]/g, (c) => escapeHtml(c));
  let out = '';
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    out += escapeText(text.slice(last, m.index));
    if (m[1] !== undefined) out += escapeText(m[1]);
    else if (m[2] !== undefined) out += `<code>${escapeText(m[2])}</code>`;
    else if (m[4] !== undefined) out += `<a href="${escapeHtml(href(m[4]))}">${inlineHtml(m[3]!, href).value}</a>`;
    else if (m[5] !== undefined) out += `<a href="${escapeHtml(href(m[5]))}">${escapeText(m[5])}</a>`;
    else out += `<strong>${escapeText(m[6]!)}</strong>`;
    last = m.index! + m[0].length;
  }
  return new Html(out + escapeText(text.slice(last)));
}

function cellHtml(cell: Cell, href: (url: string) => string): Html {
  if (typeof cell === 'string') return inlineHtml(cell, href);
  const lines = cell.lines.length
    ? html`${cell.lines.map((l, i) => html`${i ? html`<br>` : ''}${inlineHtml(l, href)}`)}`
    : html`<span class="muted">none</span>`;
  return cell.muted ? html`${lines}<br><span class="muted">${inlineHtml(cell.muted, href)}</span>` : lines;
}

function blockHtml(block: Block, href: (url: string) => string): Html {
  const inline = (t: Inline) => inlineHtml(t, href);
  if ('p' in block) return html`<p>${inline(block.p)}</p>`;
  if ('list' in block) {
    const items = block.list.map(
      (i) => html`<li>${inline(i)}</li>
`,
    );
    return block.ordered
      ? html`<ol>
${items}</ol>`
      : html`<ul>
${items}</ul>`;
  }
  if ('facts' in block) {
    return html`<dl class="facts">
${block.facts.map(
  ([label, value]) => html`<div><dt>${label}</dt><dd>${inline(value)}</dd></div>
`,
)}</dl>`;
  }
  if ('table' in block) {
    const t = block.table;
    return html`<div class="table-scroll" role="region" tabindex="0" aria-label="${t.label}"><table>
<thead><tr>${t.head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>
${t.rows.map(
  (row) => html`<tr>${row.map((c, i) => html`<td${i === t.nowrap ? html` class="nowrap"` : ''}>${cellHtml(c, href)}</td>`)}</tr>
`,
)}</tbody>
</table></div>`;
  }
  if ('params' in block) {
    return html`<dl class="params">
${block.params.map(
  (
    p,
  ) => html`<div><dt><code>${p.name}</code> <span class="muted">${p.where}</span></dt><dd>${inline(p.description)} <span class="schema">${inline(p.schema)}</span></dd></div>
`,
)}</dl>`;
  }
  if ('code' in block) return html`<pre tabindex="0"><code class="language-${block.language ?? 'bash'}">${block.code}</code></pre>`;
  if ('heading' in block) return html`<h3 id="${block.id}">${block.heading}</h3>`;
  const s = block.sub;
  return html`<section class="${s.className}" aria-labelledby="${s.id}">
<h3 id="${s.id}"><code>${s.code}</code> <span class="op-id">${s.tag}</span></h3>
${blocksHtml(s.blocks, href)}
</section>`;
}

function blocksHtml(blocks: readonly Block[], href: (url: string) => string): Html {
  return html`${blocks.map((b, i) => html`${i ? '\n' : ''}${blockHtml(b, href)}`)}`;
}

export function sectionsHtml(sections: readonly DocSection[], href: (url: string) => string): Html {
  return html`${sections.map(
    (
      s,
      i,
    ) => html`${i ? '\n\n' : ''}<section ${s.idOnSection ? html`id="${s.id}" aria-labelledby="${s.id}-title"` : html`aria-labelledby="${s.id}"`}>
<h2 id="${s.idOnSection ? `${s.id}-title` : s.id}">${s.title}</h2>
${blocksHtml(s.blocks, href)}
</section>`,
  )}`;
}

/** The table of contents of the sections. */
export function tocHtml(sections: readonly DocSection[]): Html {
  return html`<nav class="toc" aria-label="On this page">
<ul>
${sections.map(
  (s) => html`<li><a href="#${s.id}">${s.title}</a></li>
`,
)}</ul>
</nav>`;
}

// ----- Markdown -----

function cellMarkdown(cell: Cell): string {
  if (typeof cell === 'string') return cell;
  const lines = cell.lines.length ? cell.lines.join(', ') : 'none';
  return cell.muted ? `${lines} (${cell.muted})` : lines;
}

/** A GFM table; a pipe inside a cell is escaped (also inside code spans, as GFM requires). */
function tableMarkdown(head: readonly string[], rows: readonly Cell[][]): string {
  const row = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [row(head), row(head.map(() => '---')), ...rows.map((r) => row(r.map(cellMarkdown)))].join('\n');
}

function fence(code: string, language: string): string {
  const ticks = '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${language}\n${code}\n${ticks}`;
}

function blockMarkdown(block: Block): string {
  if ('p' in block) return block.p;
  if ('list' in block) return block.list.map((i, n) => `${block.ordered ? `${n + 1}.` : '-'} ${i}`).join('\n');
  if ('facts' in block) return block.facts.map(([label, value]) => `- ${label}: ${value}`).join('\n');
  if ('table' in block) return tableMarkdown(block.table.head, block.table.rows);
  if ('params' in block) return block.params.map((p) => `- \`${p.name}\` (${p.where}; ${p.schema}): ${p.description}`).join('\n');
  if ('code' in block) return fence(block.code, block.language ?? 'bash');
  if ('heading' in block) return `### ${block.heading}`;
  const s = block.sub;
  return [`### ${s.code} (${s.tag})`, ...s.blocks.map(blockMarkdown)].join('\n\n');
}

export function sectionsMarkdown(sections: readonly DocSection[]): string {
  return sections.map((s) => [`## ${s.title}`, ...s.blocks.map(blockMarkdown)].join('\n\n')).join('\n\n');
}
