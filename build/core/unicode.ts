// Regular expressions with Unicode property escapes (`\p{L}`), made on their
// first use. V8 builds the character classes of such a pattern when it parses
// it, and it parses every regular expression literal of a script when the
// script loads: in the functions' one bundle, each literal cost every cold
// start, MCP's and a precomputed file's too, whether or not it ever ran.

/** The expression `new RegExp(source, flags)`, made the first time the returned function is called. */
export function unicode(source: string, flags = 'u'): () => RegExp {
  let made: RegExp | undefined;
  return () => (made ??= new RegExp(source, flags));
}
