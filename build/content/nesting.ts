// A guard before the Markdown parser: containers nested hundreds deep are a
// pasting accident that slows the parser quadratically and then overflows its stack.
import type { Parsed } from './frontmatter.js';
import type { Problem } from './problems.js';

/**
 * Block quotes and list items nested deeper than this are a pasting accident;
 * the Markdown parser slows down quadratically on them and then overflows
 * its stack, so they are reported before it runs.
 */
const MAX_NESTING = 100;
const CONTAINER = /^[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/;

export function tooDeep(doc: Parsed): Problem | null {
  const lines = doc.body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let rest = lines[i]!;
    let depth = 0;
    for (let m = CONTAINER.exec(rest); m && depth <= MAX_NESTING; m = CONTAINER.exec(rest)) {
      depth++;
      rest = rest.slice(m[0].length);
    }
    if (depth > MAX_NESTING) {
      return { file: doc.source.file, line: doc.bodyLine + i, column: 1, message: `This line nests more than ${MAX_NESTING} block quotes or list items, too deep to render.`, hint: 'Flatten it: quotes or lists this deep are usually a pasting accident.' };
    }
  }
  return null;
}
