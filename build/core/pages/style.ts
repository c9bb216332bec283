// Generated from style.css by scripts/stylesheet.js (npm run compile); edit the CSS, not this file.
// The one stylesheet (D20): system fonts, a readable measure, light and dark through
// prefers-color-scheme, visible focus, and highlight.js token colours for code
// highlighted at build time. As text, so the core serves it without reading files.
export const STYLESHEET = `/* folio: site.css */
:root {
  color-scheme: light dark;
  --bg: #fcfcfa;
  --text: #1d2126;
  --muted: #55606c;
  --accent: #0b5cad;
  --accent-strong: #084785;
  --accent-text: #ffffff;
  --border: #dcdfe3;
  --surface: #f2f3f1;
  --code-bg: #f3f4f6;
  --mark: #fff3c4;
  --live: #1d6b37;
  --live-bg: #e2f3e7;
  --delivered: #1e4f8a;
  --delivered-bg: #e3ecf8;
  --sunset: #7a4a06;
  --sunset-bg: #f8ecd6;
  --hl-keyword: #b3123a;
  --hl-string: #0a3a6b;
  --hl-comment: #56606a;
  --hl-number: #0550ae;
  --hl-title: #6a36c2;
  --hl-attr: #8a4100;
  --measure: 46rem;
  --radius: 8px;
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
}

/* On screen only: a printout is dark text on white paper whatever the screen's scheme. */
@media screen and (prefers-color-scheme: dark) {
  :root {
    --bg: #111417;
    --text: #e4e7eb;
    --muted: #a2acb7;
    --accent: #7ab7ff;
    --accent-strong: #a9d0ff;
    --accent-text: #0b1520;
    --border: #2e353d;
    --surface: #191d22;
    --code-bg: #171b20;
    --mark: #4a3d0c;
    --live: #8fdca6;
    --live-bg: #17301f;
    --delivered: #9cc4f5;
    --delivered-bg: #172436;
    --sunset: #f0c47d;
    --sunset-bg: #35270f;
    --hl-keyword: #ff8b8b;
    --hl-string: #a5d6ff;
    --hl-comment: #9aa5b1;
    --hl-number: #79c0ff;
    --hl-title: #d2a8ff;
    --hl-attr: #ffb374;
  }
}

*, *::before, *::after { box-sizing: border-box; }

html {
  -webkit-text-size-adjust: 100%;
  text-size-adjust: 100%;
}

body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font-family: var(--font);
  font-size: 1.0625rem;
  line-height: 1.65;
  font-kerning: normal;
  text-rendering: optimizeLegibility;
  overflow-wrap: break-word;
}

.wrap {
  max-width: calc(var(--measure) + 2.5rem);
  margin: 0 auto;
  padding: 0 1.25rem;
}

a { color: var(--accent); text-underline-offset: 0.18em; text-decoration-thickness: 1px; }
a:hover { color: var(--accent-strong); text-decoration-thickness: 2px; }

:focus-visible {
  outline: 3px solid var(--accent);
  outline-offset: 2px;
  border-radius: 2px;
}
main:focus { outline: none; }

.skip-link {
  position: absolute;
  left: 1rem;
  top: -4rem;
  z-index: 10;
  padding: 0.5rem 0.9rem;
  background: var(--accent);
  color: var(--accent-text);
  border-radius: var(--radius);
  font-weight: 600;
}
.skip-link:focus { top: 0.75rem; }

.sr-only {
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}

/* Header and navigation */
.site-header {
  border-bottom: 1px solid var(--border);
  background: var(--surface);
}
.header-inner {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.25rem 1.5rem;
  padding-top: 0.9rem;
  padding-bottom: 0.9rem;
}
.brand {
  font-weight: 700;
  font-size: 1.15rem;
  color: var(--text);
  text-decoration: none;
  letter-spacing: -0.01em;
}
.brand:hover { color: var(--accent); }
.site-header nav ul {
  display: flex;
  flex-wrap: wrap;
  gap: 0.15rem 1.1rem;
  margin: 0;
  padding: 0;
  list-style: none;
}
.site-header nav a {
  display: inline-block;
  padding: 0.2rem 0;
  color: var(--muted);
  text-decoration: none;
  font-weight: 500;
}
.site-header nav a:hover { color: var(--accent); }
.site-header nav a[aria-current="page"] {
  color: var(--text);
  box-shadow: inset 0 -2px 0 var(--accent);
}

main { display: block; padding: 2.25rem 0 3rem; }

/* Type */
h1, h2, h3, h4 { line-height: 1.25; letter-spacing: -0.015em; margin: 2rem 0 0.75rem; }
h1 { font-size: clamp(1.85rem, 1.3rem + 2.4vw, 2.6rem); margin-top: 0.5rem; letter-spacing: -0.025em; }
h2 { font-size: 1.5rem; }
h3 { font-size: 1.2rem; }
h4 { font-size: 1.05rem; }
p, ul, ol, dl, pre, table, blockquote { margin: 0 0 1.1rem; }
ul, ol { padding-left: 1.4rem; }
main li + li { margin-top: 0.3rem; }
.site-header li, .tags li, .availability .terms li, .cards > li, .footer-links li, .post-list > li { margin-top: 0; }
.lead { font-size: 1.2rem; color: var(--text); line-height: 1.55; }
.muted, .meta, .crumbs { color: var(--muted); }
.meta { font-size: 0.95rem; margin-bottom: 0.5rem; }
.crumbs { margin: 0; font-size: 0.95rem; }
.count {
  display: inline-block;
  min-width: 1.6em;
  padding: 0 0.4em;
  border-radius: 999px;
  background: var(--surface);
  border: 1px solid var(--border);
  color: var(--muted);
  font-size: 0.8em;
  text-align: center;
  font-weight: 500;
  vertical-align: 0.1em;
}
hr { border: 0; border-top: 1px solid var(--border); margin: 2rem 0; }
blockquote {
  margin-left: 0;
  padding: 0.1rem 0 0.1rem 1rem;
  border-left: 3px solid var(--border);
  color: var(--muted);
}
mark { background: var(--mark); color: inherit; }
img { max-width: 100%; height: auto; }

/* Code */
code, kbd, samp, pre { font-family: var(--mono); font-size: 0.9em; }
:not(pre) > code {
  padding: 0.1em 0.35em;
  border-radius: 4px;
  background: var(--code-bg);
  border: 1px solid var(--border);
  font-size: 0.86em;
}
pre {
  padding: 1rem 1.1rem;
  overflow-x: auto;
  background: var(--code-bg);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  line-height: 1.5;
  tab-size: 2;
}
pre code { font-size: 0.88rem; background: none; border: 0; padding: 0; }
.hljs-comment, .hljs-quote { color: var(--hl-comment); font-style: italic; }
.hljs-keyword, .hljs-selector-tag, .hljs-literal, .hljs-doctag, .hljs-meta .hljs-keyword { color: var(--hl-keyword); }
.hljs-string, .hljs-regexp, .hljs-addition, .hljs-meta .hljs-string { color: var(--hl-string); }
.hljs-number, .hljs-symbol, .hljs-bullet, .hljs-link, .hljs-meta, .hljs-built_in, .hljs-type { color: var(--hl-number); }
.hljs-title, .hljs-section, .hljs-title.function_, .hljs-title.class_ { color: var(--hl-title); font-weight: 600; }
.hljs-attr, .hljs-attribute, .hljs-variable, .hljs-template-variable, .hljs-params, .hljs-property, .hljs-name, .hljs-selector-class, .hljs-selector-id { color: var(--hl-attr); }
.hljs-deletion { color: var(--hl-keyword); }
.hljs-emphasis { font-style: italic; }
.hljs-strong { font-weight: 700; }

/* Tables scroll sideways inside their own region on narrow screens */
.table-scroll {
  overflow-x: auto;
  margin: 0 0 1.25rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
}
table { border-collapse: collapse; width: 100%; margin: 0; font-size: 0.95rem; line-height: 1.45; }
th, td { padding: 0.55rem 0.75rem; text-align: left; vertical-align: top; border-bottom: 1px solid var(--border); }
thead th { background: var(--surface); font-weight: 600; white-space: nowrap; }
tbody tr:last-child td { border-bottom: 0; }
.align-right { text-align: right; }
.align-center { text-align: center; }
.table-scroll table { min-width: 32rem; }

/* Footnotes */
.footnotes {
  margin-top: 2.5rem;
  padding-top: 1rem;
  border-top: 1px solid var(--border);
  font-size: 0.92rem;
  color: var(--muted);
}
.footnotes ol { padding-left: 1.2rem; }
.footnotes p { margin: 0 0 0.4rem; }
/* Footnote links keep their underline: colour alone does not mark a link (WCAG 1.4.1). */
[data-footnote-ref] { padding: 0 0.1em; }
[data-footnote-ref]::before { content: "["; }
[data-footnote-ref]::after { content: "]"; }
:target { scroll-margin-top: 1rem; }
li:target, sup:target { background: var(--mark); border-radius: 3px; }

/* Prose (rendered bodies) */
.prose h2 { font-size: 1.4rem; margin-top: 2.25rem; }
.prose h3 { font-size: 1.15rem; }
.prose li > p { margin: 0; }
.prose input[type="checkbox"] { margin-right: 0.4em; }

/* Lists of posts */
.post-list { list-style: none; padding: 0; margin: 0 0 1.5rem; }
.post-list > li { margin: 0; padding: 1.25rem 0; border-bottom: 1px solid var(--border); }
.post-list > li:first-child { padding-top: 0.5rem; }
.post-item h2, .post-item h3 { margin: 0 0 0.25rem; font-size: 1.25rem; }
.post-item h2 a, .post-item h3 a { color: var(--text); text-decoration: none; }
.post-item h2 a:hover, .post-item h3 a:hover { color: var(--accent); text-decoration: underline; }
.post-item p { margin-bottom: 0.5rem; }

.tags { display: flex; flex-wrap: wrap; gap: 0.4rem; list-style: none; padding: 0; margin: 0.5rem 0 0; }
.tags li { margin: 0; }
.tags a, .tags span {
  display: inline-block;
  padding: 0.1rem 0.6rem;
  border: 1px solid var(--border);
  border-radius: 999px;
  font-size: 0.85rem;
  text-decoration: none;
  color: var(--muted);
  background: var(--bg);
}
.tags a:hover { color: var(--accent); border-color: var(--accent); }
.tags a[aria-current="page"] { color: var(--accent-text); background: var(--accent); border-color: var(--accent); }
.tags a[aria-current="page"] .count { background: transparent; color: inherit; border-color: currentColor; }
.tag-cloud { margin: 1.5rem 0 1.75rem; }
.tag-cloud-title { font-size: 1rem; margin: 0 0 0.5rem; color: var(--muted); font-weight: 600; letter-spacing: 0; }
.tag-cloud .count { border: 0; background: transparent; min-width: 0; padding: 0; margin-left: 0.15rem; }

/* Cards */
.cards {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr));
  gap: 1rem;
  list-style: none;
  padding: 0;
  margin: 0 0 1.5rem;
}
.cards > li { margin: 0; display: flex; flex-direction: column; }
.card {
  flex: 1;
  padding: 1.1rem 1.2rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--surface);
}
.card h3 { margin: 0 0 0.4rem; font-size: 1.1rem; }
.card h3 a { color: var(--text); text-decoration: none; }
.card h3 a:hover { color: var(--accent); text-decoration: underline; }
.card p { margin-bottom: 0.5rem; font-size: 0.97rem; }
.card p:last-child { margin-bottom: 0; }

.badge {
  display: inline-block;
  padding: 0.05rem 0.55rem;
  border-radius: 999px;
  font-size: 0.8rem;
  font-weight: 600;
  letter-spacing: 0.02em;
}
.badge-live { color: var(--live); background: var(--live-bg); }
.badge-delivered { color: var(--delivered); background: var(--delivered-bg); }
.badge-sunset { color: var(--sunset); background: var(--sunset-bg); }

/* Home */
.hero { padding: 0.5rem 0 1.5rem; }
/* The profile photo (D45): a small round portrait whatever the size of the file. */
.photo { display: block; width: 8rem; height: 8rem; border-radius: 50%; object-fit: cover; margin: 0 0 1rem; }
.hero h1 { margin-bottom: 0.4rem; }
.hero .lead { font-size: 1.3rem; max-width: 36rem; }
.location { color: var(--muted); margin-top: -0.5rem; }
.availability {
  padding: 0.8rem 1rem;
  border-left: 4px solid var(--accent);
  background: var(--surface);
  border-radius: 0 var(--radius) var(--radius) 0;
}
.availability-available { border-left-color: var(--live); }
.availability-limited { border-left-color: var(--sunset); }
.availability p { margin: 0; }
.availability .terms { list-style: none; padding: 0; margin: 0.4rem 0 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.25rem; }
.button {
  display: inline-block;
  padding: 0.55rem 1.1rem;
  border-radius: var(--radius);
  background: var(--accent);
  color: var(--accent-text);
  font-weight: 600;
  text-decoration: none;
  border: 1px solid var(--accent);
}
.button:hover { background: var(--accent-strong); border-color: var(--accent-strong); color: var(--accent-text); }
.button-quiet { background: transparent; color: var(--accent); }
.button-quiet:hover { background: var(--surface); color: var(--accent-strong); }
.section-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0 1rem; margin-top: 2.5rem; }
.section-head h2 { margin: 0 0 0.75rem; }
.for-agents { margin-top: 2.5rem; padding-top: 0.5rem; border-top: 1px solid var(--border); }
.for-agents h2 { font-size: 1.15rem; }

/* Facts */
.facts { display: grid; gap: 0.35rem; margin: 1rem 0 1.25rem; }
.facts > div { display: grid; grid-template-columns: 9rem minmax(0, 1fr); gap: 1rem; }
.facts dt { color: var(--muted); font-weight: 500; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.contact-list { display: grid; gap: 0.5rem; }
.contact-list > div { display: grid; grid-template-columns: 9rem 1fr; gap: 1rem; padding: 0.5rem 0; border-bottom: 1px solid var(--border); }
.contact-list dt { font-weight: 600; }
.contact-list dd { margin: 0; }

/* Services */
.toc { margin: 1.25rem 0 1.5rem; padding: 0.9rem 1.1rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.toc ul { margin: 0; padding-left: 1.1rem; columns: 2 16rem; column-gap: 2rem; }
.toc li { break-inside: avoid; }
.service { padding-top: 1rem; border-top: 1px solid var(--border); margin-top: 2rem; }
.service h2 { margin-top: 0.5rem; }
.fit li::marker { color: var(--accent); }
.cta { margin-top: 2.5rem; padding: 1rem 1.2rem; background: var(--surface); border-radius: var(--radius); }

/* Posts and projects */
.post-header { margin-bottom: 2rem; padding-bottom: 1.25rem; border-bottom: 1px solid var(--border); }
.post-header h1 { margin-bottom: 0.5rem; }
.related { margin-top: 3rem; padding: 1rem 1.2rem; border: 1px solid var(--border); border-radius: var(--radius); }
.related h2 { margin-top: 0; font-size: 1.1rem; }
.related ul { margin: 0; }
.back { margin-top: 2rem; }

/* Developers */
.endpoint { margin: 1.75rem 0 2.25rem; padding-left: 1rem; border-left: 3px solid var(--border); }
.endpoint > :last-child { margin-bottom: 0; }
.endpoint h3 { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.75rem; }
.endpoint h3 code { font-size: 1rem; }
.params { margin: 0 0 1rem; }
.params > div { padding: 0.45rem 0; border-bottom: 1px solid var(--border); }
.params > div:first-child { border-top: 1px solid var(--border); }
.params dt { font-weight: 600; }
.params dt .muted { font-weight: 400; font-size: 0.9rem; margin-left: 0.35rem; }
.params dd { margin: 0.1rem 0 0; }
.params .schema { display: block; color: var(--muted); font-size: 0.9rem; }
td.nowrap { white-space: nowrap; }
.op-id { color: var(--muted); font-size: 0.9rem; font-weight: 500; }
.notice { padding: 0.9rem 1.1rem; border: 1px solid var(--sunset); background: var(--sunset-bg); border-radius: var(--radius); }
.notice p { margin: 0; }
#versioning { scroll-margin-top: 1rem; }

/* Footer */
.site-footer {
  border-top: 1px solid var(--border);
  background: var(--surface);
  color: var(--muted);
  font-size: 0.92rem;
  padding: 1.5rem 0 2rem;
}
.site-footer p { margin: 0 0 0.6rem; }
.footer-links { display: flex; flex-wrap: wrap; gap: 0.3rem 1.25rem; list-style: none; padding: 0; margin: 0; }
.footer-links li { margin: 0; }
.site-footer a { color: var(--muted); }
.site-footer a:hover { color: var(--accent); }

pre.source { white-space: pre-wrap; }

@media (max-width: 40rem) {
  body { font-size: 1rem; }
  .wrap { padding-left: 1rem; padding-right: 1rem; }
  main { padding-top: 1.5rem; }
  .header-inner { display: block; padding-top: 0.75rem; padding-bottom: 0.6rem; }
  .site-header nav ul { margin-top: 0.3rem; gap: 0.1rem 0.8rem; }
  .site-header nav a { font-size: 0.95rem; }
  .facts > div, .contact-list > div { grid-template-columns: minmax(0, 1fr); gap: 0; }
  .lead, .hero .lead { font-size: 1.1rem; }
  .prose pre { margin-left: -1rem; margin-right: -1rem; border-radius: 0; border-left: 0; border-right: 0; }
}

@media (prefers-reduced-motion: no-preference) {
  html { scroll-behavior: smooth; }
}

@media print {
  .site-header nav, .skip-link, .site-footer, .related { display: none; }
  body { background: #fff; color: #000; }
  a { color: inherit; }
  pre, .table-scroll { overflow: visible; white-space: pre-wrap; }
}
`;
