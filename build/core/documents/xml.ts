// Text and attribute escaping for the XML documents (sitemap, Atom).

// Characters XML 1.0 does not allow at all (§2.2): C0 controls but tab, LF
// and CR, lone surrogates, U+FFFE and U+FFFF. They are dropped, not escaped.
const INVALID =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Safe in element content and in single- or double-quoted attributes. */
export function escapeXml(text: string): string {
  return text.replace(INVALID, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
