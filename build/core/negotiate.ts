// Accept negotiation between a page and its Markdown twin (D21, RFC 9110 §12.5.1).

interface Range {
  type: string;
  subtype: string;
  q: number;
}

// Indexed loops and no destructuring: these run on the first request of a
// cold function, in V8's interpreter, where array destructuring and rest
// elements go through the iterator protocol and cost several times the parse.
function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  const parts = header.split(',');
  for (let i = 0; i < parts.length; i++) {
    const fields = parts[i]!.split(';');
    const media = fields[0]!.trim().toLowerCase().split('/');
    const type = media[0];
    const subtype = media[1];
    if (!type || !subtype) continue;
    let q = 1;
    for (let j = 1; j < fields.length; j++) {
      const param = fields[j]!.trim().toLowerCase().split('=');
      if (param[0]!.trim() === 'q') {
        const n = Number(param[1]?.trim());
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
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i]!;
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity > best) {
      best = specificity;
      q = r.q;
    }
  }
  return q;
}

/** Markdown wins only when text/markdown weighs more than text/html; ties and no header give HTML. */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  return weight(ranges, 'text', 'markdown') > weight(ranges, 'text', 'html');
}
