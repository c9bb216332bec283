// Building HTML safely (D24): every value interpolated into the `html` tag is
// escaped unless it is already Html. The only way in for markup is `trusted()`,
// used for bodies rendered by the sanitizing Markdown processor at build time.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  // Most text has nothing to escape; a test is far cheaper than a replace with a callback.
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]!) : text;
}

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function serialise(value: Part): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(serialise).join('');
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes text; Html values and arrays of them pass through. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += serialise(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup that was sanitized when it was rendered (build/content/markdown.ts). */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/**
 * A body rendered at build time, or, where the model carries no HTML (the
 * functions' copy of it), the Markdown shown as escaped text. Pages are
 * precomputed, so the fallback only shows if a page is rendered at run time.
 */
export function body(rendered: string | undefined, markdown: string): Html {
  return rendered === undefined ? html`<pre class="source">${markdown}</pre>` : trusted(rendered);
}

/**
 * An href the page may carry: http(s), mailto, or a site-relative path.
 * Anything else (javascript:, data:, vbscript:…) becomes null and is shown as text.
 */
export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^(https?:\/\/|mailto:)/i.test(u)) return u;
  // Site-relative only: a browser reads /\host and a path with a tab or line break in it (dropped) as another host.
  if (u.startsWith('/') && !/^\/[/\\]/.test(u) && !/[\t\n\r]/.test(u)) return u;
  return null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2024-11-25" → "25 November 2024"; "2023-04" → "April 2023". Plain string work, no locale data. */
export function humanDate(date: string): string {
  const [y, m, d] = date.split('-');
  const month = MONTHS[Number(m) - 1] ?? m;
  return d ? `${Number(d)} ${month} ${y}` : `${month} ${y}`;
}

export function time(date: string): Html {
  return html`<time datetime="${date}">${humanDate(date)}</time>`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
