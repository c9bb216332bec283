// The site's theme (D46): accent colours checked against WCAG AA, and the
// stylesheet that applies them after the built-in one. Pure: colours in,
// text out. Pages stay script-free; dark mode stays a media query.
import type { SiteConfig } from './model.js';

export type Rgb = [number, number, number];
export type Font = 'sans' | 'serif' | 'mono';
export const FONTS: readonly Font[] = ['sans', 'serif', 'mono'];

/**
 * Page background, panel background and text of each scheme: the values of
 * --bg, --surface and --text in pages/style.ts (a test keeps them equal).
 * Accent links sit on both backgrounds (a post, the table of contents).
 */
export const SCHEMES = {
  light: { bg: '#fcfcfa', surface: '#f2f3f1', text: '#1d2126' },
  dark: { bg: '#111417', surface: '#191d22', text: '#e4e7eb' },
} as const;
export type Scheme = keyof typeof SCHEMES;

/** The backgrounds an accent is read on in a scheme, by the name a message gives each. */
export function accentBackgrounds(scheme: Scheme): [name: string, hex: string][] {
  return [
    ['page background', SCHEMES[scheme].bg],
    ['panel background', SCHEMES[scheme].surface],
  ];
}

/** WCAG 2 AA for normal text. */
export const AA_RATIO = 4.5;

export const THEME_PATH = '/assets/theme.css';

/** "#1a7f37" or "#1a7" → [r, g, b]; anything else → null. */
export function parseHex(value: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!m) return null;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

export function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The ratio as people quote it: rounded down to two decimals, so 4.499 never reads as 4.5. */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return a.map((c, i) => c + (b[i]! - c) * t) as Rgb;
}

/**
 * The colour nearest to `color` (mixed towards black on a light background,
 * white on a dark one, 1 % at a time) whose contrast with `bg` is at least
 * `ratio`: the same hue, as close to what the author chose as passes.
 */
export function passingColor(color: Rgb, bg: Rgb | readonly Rgb[], ratio = AA_RATIO): Rgb {
  const backgrounds = (Array.isArray(bg[0]) ? bg : [bg]) as readonly Rgb[];
  const toward: Rgb = luminance(backgrounds[0]!) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 0; step <= 100; step++) {
    // Rounded as it will be written, so the colour named is the colour checked.
    const candidate = parseHex(toHex(mix(color, toward, step / 100)))!;
    if (backgrounds.every((b) => contrast(candidate, b) >= ratio)) return candidate;
  }
  return toward;
}

export interface ThemeColors {
  accent: string;
  /** A darker (light scheme) or lighter (dark scheme) accent for hover. */
  strong: string;
  /** Text on an accent background: the scheme's background or text colour, whichever contrasts more. */
  onAccent: string;
}

function schemeColors(accent: string, scheme: Scheme): ThemeColors {
  const rgb = parseHex(accent)!;
  const { bg, text } = SCHEMES[scheme];
  const bgRgb = parseHex(bg)!;
  const textRgb = parseHex(text)!;
  const strong = toHex(mix(rgb, textRgb, 0.25));
  const onAccent = contrast(rgb, bgRgb) >= contrast(rgb, textRgb) ? bg : text;
  return { accent, strong, onAccent };
}

const FONT_STACKS: Record<Font, string> = {
  sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  serif: 'ui-serif, Charter, "Bitstream Charter", "Iowan Old Style", Georgia, Cambria, "Times New Roman", serif',
  mono: 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace',
};

/** Whether the site has a theme stylesheet at all: pages link it only then. */
export function hasTheme(config: SiteConfig): boolean {
  const t = config.theme;
  return Boolean(t && (t.accent || t.accent_dark || t.font || t.css !== null));
}

/**
 * The theme stylesheet: custom properties over the built-in ones, then the
 * author's content/theme.css verbatim, so it wins over both. Null without a
 * theme.
 */
export function themeCss(config: SiteConfig): string | null {
  if (!hasTheme(config)) return null;
  const t = config.theme!;
  const vars = (c: ThemeColors) => `  --accent: ${c.accent};\n  --accent-strong: ${c.strong};\n  --accent-text: ${c.onAccent};\n`;
  const out = ['/* Generated by folio from site.yaml `theme` (D46); content/theme.css follows. */'];
  const root = `${t.accent ? vars(schemeColors(t.accent, 'light')) : ''}${t.font ? `  --font: ${FONT_STACKS[t.font]};\n` : ''}`;
  if (root) out.push(`:root {\n${root}}`);
  if (t.accent_dark)
    out.push(
      `@media screen and (prefers-color-scheme: dark) {\n  :root {\n${vars(schemeColors(t.accent_dark, 'dark')).trimEnd().replace(/^/gm, '  ')}\n  }\n}`,
    );
  if (t.css !== null) out.push(t.css.trimEnd());
  return `${out.join('\n')}\n`;
}
