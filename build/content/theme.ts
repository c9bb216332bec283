// site.yaml `theme` (D46): hex accents that must read on the page background
// of their scheme (WCAG AA, 4.5:1), and a font family. A failing accent is a
// content error that names both colours, the ratio and a colour that passes.
import { AA_RATIO, accentBackgrounds, contrast, FONTS, formatRatio, parseHex, passingColor, toHex, type Font, type Scheme } from '../core/theme.js';
import type { Theme } from '../core/model.js';
import { closest } from './problems.js';
import type { Fields } from './fields.js';

const EXAMPLE = '{ accent: "#1a7f37", accent_dark: "#5fd38a", font: serif }';
const KEYS = ['accent', 'accent_dark', 'font'];

function color(f: Fields, raw: Record<string, unknown>, key: 'accent' | 'accent_dark', scheme: Scheme): string | null | undefined {
  const value = raw[key];
  if (value === null && Object.hasOwn(raw, key)) {
    f.report(`theme.${key}`, `\`theme.${key}\` is empty: an unquoted colour is read as nothing, since a bare # starts a YAML comment.`, `Quote it, e.g. ${key}: "${key === 'accent' ? '#1a7f37' : '#5fd38a'}", or remove the line.`);
    return undefined;
  }
  if (value === undefined) return null;
  const rgb = typeof value === 'string' ? parseHex(value) : null;
  if (!rgb) {
    f.report(`theme.${key}`, `\`theme.${key}\` is ${JSON.stringify(value)}, which is not a hex colour.`, `Write it as a quoted hex colour, e.g. ${key}: "${key === 'accent' ? '#1a7f37' : '#5fd38a'}" (a bare # starts a YAML comment).`);
    return undefined;
  }
  const hex = toHex(rgb);
  // Checked on each background accent links sit on; named on the one it reads worst on.
  const backgrounds = accentBackgrounds(scheme).map(([name, bg]) => ({ name, bg, ratio: contrast(rgb, parseHex(bg)!) }));
  const worst = backgrounds.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  if (worst.ratio < AA_RATIO) {
    const better = passingColor(
      rgb,
      backgrounds.map((b) => parseHex(b.bg)!),
    );
    const least = Math.min(...backgrounds.map((b) => contrast(better, parseHex(b.bg)!)));
    f.report(
      `theme.${key}`,
      `\`theme.${key}\` ${hex} on the ${scheme} ${worst.name} ${worst.bg} has a contrast of ${formatRatio(worst.ratio)}, below the 4.5:1 WCAG AA asks of text.`,
      `Use ${toHex(better)} (${formatRatio(least)} or more on both backgrounds), the nearest colour of the same hue that passes.`,
    );
    return undefined;
  }
  return hex;
}

/** The theme of site.yaml, or undefined (with problems reported) when it is not valid. `css` is content/theme.css. */
export function readTheme(f: Fields, css: string | null): Theme | undefined {
  const raw = f.map('theme', EXAMPLE, false);
  if (f.has('theme') && !raw) return undefined;
  const given = raw ?? {};
  for (const key of Object.keys(given)) {
    if (KEYS.includes(key)) continue;
    const near = closest(key, KEYS);
    f.report(`theme.${key}`, `"${key}" is not a field of \`theme\`.`, near ? `Did you mean "${near}"?` : `theme takes ${KEYS.join(', ')}, e.g. theme: ${EXAMPLE}`);
    return undefined;
  }
  const accent = color(f, given, 'accent', 'light');
  const explicitDark = color(f, given, 'accent_dark', 'dark');
  let font: Font | null = null;
  if (given.font !== undefined && given.font !== null) {
    if (!FONTS.includes(given.font as Font)) {
      const near = typeof given.font === 'string' ? closest(given.font, FONTS) : undefined;
      f.report('theme.font', `\`theme.font\` is ${JSON.stringify(given.font)}, which is not one of ${FONTS.join(', ')}.`, near ? `Did you mean "${near}"?` : `Use one of ${FONTS.join(', ')}.`);
      return undefined;
    }
    font = given.font as Font;
  }
  if (accent === undefined || explicitDark === undefined) return undefined;
  // Without accent_dark, dark mode keeps the author's hue: the accent itself, lightened until it reads on the dark background.
  const dark =
    explicitDark ??
    (accent
      ? toHex(
          passingColor(
            parseHex(accent)!,
            accentBackgrounds('dark').map(([, bg]) => parseHex(bg)!),
          ),
        )
      : null);
  return { accent, accent_dark: dark, font, css };
}
