// The stylesheet is written as CSS (build/core/pages/style.css) and reaches
// the core as a generated TypeScript module (style.ts) holding its text, so
// the core reads no file at run time and every bundler that builds it (our
// esbuild CLI bundle, wrangler and the other hosts' function bundlers, vitest)
// sees plain TypeScript. scripts/compile.js regenerates the module; a test
// checks that the committed module matches the CSS.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CSS_PATH = fileURLToPath(new URL('../build/core/pages/style.css', import.meta.url));
export const MODULE_PATH = fileURLToPath(new URL('../build/core/pages/style.ts', import.meta.url));

/** The module's text for a stylesheet's text: one template literal, escaped where a template literal needs it. */
export function stylesheetModule(css) {
  const literal = css.replace(/[\\`]/g, '\\$&').replace(/\$\{/g, '\\${');
  return `// Generated from style.css by scripts/stylesheet.js (npm run compile); edit the CSS, not this file.
// The one stylesheet (D20): system fonts, a readable measure, light and dark through
// prefers-color-scheme, visible focus, and highlight.js token colours for code
// highlighted at build time. As text, so the core serves it without reading files.
export const STYLESHEET = \`${literal}\`;
`;
}

/**
 * Rewrites style.ts when style.css changed; true when it did. A style.ts
 * newer than style.css that says something else was edited by hand (or by a
 * merge): that edit would be lost, so it stops with a message instead.
 */
export function writeStylesheetModule() {
  const text = stylesheetModule(readFileSync(CSS_PATH, 'utf8'));
  let current = null;
  try {
    current = readFileSync(MODULE_PATH, 'utf8');
  } catch {
    // not generated yet
  }
  if (current === text) return false;
  if (current !== null && statSync(MODULE_PATH).mtimeMs > statSync(CSS_PATH).mtimeMs) {
    throw new Error(
      `${MODULE_PATH} differs from what ${CSS_PATH} generates and is newer: it was edited by hand. Move the change into style.css, then run npm run compile.`,
    );
  }
  writeFileSync(MODULE_PATH, text);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeStylesheetModule();
