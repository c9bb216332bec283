// Accept negotiation between a page and its Markdown twin (D21, RFC 9110 §12.5.1).

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  for (const part of header.split(',')) {
    const [media = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const [type, subtype] = media.split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) && n >= 0 && n <= 1 ? n : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The weight the Accept header gives a media type: the most specific matching range decides. */
export function weight(ranges: Range[], type: string, subtype: string): number {
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity > best) [best, q] = [specificity, r.q];
  }
  return q;
}

/** Markdown wins only when text/markdown weighs more than text/html; ties and no header give HTML. */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  return weight(ranges, 'text', 'markdown') > weight(ranges, 'text', 'html');
}
