// Live reload, the only dev-only part of a response: a same-origin script
// added to HTML pages as they pass through the dev server, its event stream,
// and the page's Content-Security-Policy widened for that one script. Nothing
// of it is ever written to the output.
import { problemPlace, type Problem } from '../content/problems.js';

export const RELOAD_PATH = '/_folio/dev/reload.js';
export const EVENTS_PATH = '/_folio/dev/events';

/** The client half of live reload: reload when this page's path, or the stylesheet, changed. */
export const RELOAD_SCRIPT = `// folio dev live reload (never part of a build)
(() => {
  const here = decodeURI(location.pathname.replace(/\\/$/, '') || '/');
  const events = new EventSource(${JSON.stringify(EVENTS_PATH)});
  events.onopen = () => (document.documentElement.dataset.folioDev = 'connected');
  events.addEventListener('change', (e) => {
    const { all, targets } = JSON.parse(e.data);
    if (all || targets.some((t) => t === here || t === here + '.md' || t.endsWith('.css'))) location.reload();
  });
})();
`;

/** Adds 'self' to script-src and connect-src, the least a same-origin script and its event stream need. */
export function devPolicy(policy: string): string {
  const directives = policy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  for (const name of ['script-src', 'connect-src']) {
    const i = directives.findIndex((d) => d.split(/\s+/)[0] === name);
    if (i === -1) directives.push(`${name} 'self'`);
    else if (!directives[i]!.split(/\s+/).includes("'self'")) directives[i] = `${directives[i]} 'self'`;
  }
  return directives.join('; ');
}

/** The page as the dev server sends it: the reload script added, the policy widened for it. */
export function withLiveReload(html: string): string {
  const tag = `<script src="${RELOAD_PATH}" defer></script>`;
  const page = html.replace(
    /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/i,
    (_, open: string, policy: string, close: string) => `${open}${escapeAttribute(devPolicy(unescapeAttribute(policy)))}${close}`,
  );
  return page.includes('</body>') ? page.replace('</body>', `${tag}\n</body>`) : `${page}${tag}`;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&lt;': '<', '&gt;': '>' };

function unescapeAttribute(s: string): string {
  return s.replace(/&(?:amp|quot|#39|#x27|lt|gt);/g, (e) => ENTITIES[e]!);
}

function escapeAttribute(s: string): string {
  return s.replace(/[&"'<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;' })[c]!);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export function problemsPage(problems: Problem[]): string {
  const items = problems
    .map(
      (p) => `<li><code>${escapeHtml(problemPlace(p))}</code>: ${escapeHtml(p.message)}<br><small>hint: ${escapeHtml(p.hint)}</small></li>`,
    )
    .join('\n');
  return withLiveReload(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>folio dev: content problems</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}code{font-weight:600}li{margin:.75rem 0}</style></head>
<body><h1>The content has ${problems.length} problem${problems.length === 1 ? '' : 's'}</h1>
<p>Fix ${problems.length === 1 ? 'it' : 'them'} and save: this page reloads when the site builds again. The output directory still holds the last good build.</p>
<ol>${items}</ol></body></html>`);
}
