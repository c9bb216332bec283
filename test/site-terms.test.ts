// site.yaml's license (D51), ai_preferences (D52) and social_image (D50):
// bad values fail the build through the real CLI with path:line:column, the
// valid keys or values, exit 1 and the previous dist untouched; a site that
// states nothing says nothing; the sample's statements reach every address
// that should carry them, through a real server.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardImageType } from '../build/core/media-types.js';
import { estimateTokens } from '../build/core/tokens.js';
import { copyContent, serveBuilt } from './helpers/site.js';
import { brokenSample, type BrokenSample } from './helpers/broken.js';

const SITE = 'https://hannabrink.example';
const LICENSE = { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' };

/** The sample's site.yaml with everything from `key:` to the next top-level key replaced by `block`. */
function withBlock(yaml: string, key: string, block: string): string {
  const lines = yaml.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${key}:`));
  if (start === -1) return `${yaml.trimEnd()}\n${block}\n`;
  let end = start + 1;
  while (end < lines.length && /^(\s|$)/.test(lines[end]!) && lines[end] !== '') end++;
  return [...lines.slice(0, start), ...block.split('\n'), ...lines.slice(end)].join('\n');
}

describe('bad site.yaml terms are content errors (D50-D52, D2, D40)', () => {
  let sample: BrokenSample;
  beforeAll(async () => {
    sample = await brokenSample();
  });
  afterAll(() => sample.close());

  /** Builds the sample with site.yaml edited (and `files` written) over the good dist; the line of `needle` is where the error must point. */
  async function breakWith(key: string, block: string, needle: string, files: Record<string, Uint8Array | string> = {}) {
    let yaml = '';
    const result = await sample.breakWith(async (dir) => {
      yaml = withBlock(await readFile(join(dir, 'site.yaml'), 'utf8'), key, block);
      await writeFile(join(dir, 'site.yaml'), yaml);
      for (const [path, body] of Object.entries(files)) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), body);
      }
    });
    const lines = yaml.split('\n');
    const line = lines.findIndex((l) => l.includes(needle)) + 1;
    const column = lines[line - 1]!.indexOf(needle) + 1;
    return { stderr: result.stderr, at: `${result.rel}/site.yaml:${line}:${column}: ` };
  }

  it('a license key that is not name or url, with the valid keys', async () => {
    const r = await breakWith('license', 'license:\n  nmae: CC BY 4.0\n  url: https://creativecommons.org/licenses/by/4.0/', 'nmae');
    expect(r.stderr).toContain(`${r.at}\`nmae\` is not a key of \`license\`.`);
    expect(r.stderr).toContain('hint: Did you mean "name"? Valid keys: name, url.');
  });

  it('a license url that is not an absolute URL', async () => {
    const r = await breakWith('license', 'license:\n  name: CC BY 4.0\n  url: creativecommons.org/licenses/by/4.0', 'url: creative');
    expect(r.stderr).toContain(`${r.at}\`license.url\` "creativecommons.org/licenses/by/4.0" is not an absolute http(s) URL.`);
  });

  it('an ai_preferences key that is not search, ai_input or ai_train', async () => {
    const r = await breakWith('ai_preferences', 'ai_preferences:\n  search: yes\n  ai_trian: no', 'ai_trian');
    expect(r.stderr).toContain(`${r.at}\`ai_trian\` is not a key of \`ai_preferences\`.`);
    expect(r.stderr).toContain('hint: Did you mean "ai_train"? Valid keys: search, ai_input, ai_train.');
  });

  it('an ai_preferences value that is not yes or no, with the valid values', async () => {
    const r = await breakWith('ai_preferences', 'ai_preferences:\n  search: yes\n  ai_input: maybe', 'ai_input');
    expect(r.stderr).toContain(`${r.at}\`ai_preferences.ai_input\` is "maybe", which is not yes or no.`);
    expect(r.stderr).toContain('hint: Valid values: yes, no.');
  });

  it('a social_image that does not exist, and one outside content/static/', async () => {
    const missing = await breakWith('social_image', 'social_image: /no-such-card.png', 'social_image');
    expect(missing.stderr).toContain(
      `${missing.at}\`social_image\` "/no-such-card.png" does not exist: there is no content/static/no-such-card.png.`,
    );
    expect(missing.stderr).toMatch(/hint: Add the file content\/static\/no-such-card\.png/);
    const outside = await breakWith('social_image', 'social_image: ../secret.png', 'social_image');
    expect(outside.stderr).toContain(`${outside.at}\`social_image\` "../secret.png" is not a file under content/static/.`);
  });

  it('a social_image whose bytes are not the image its name says, as a body image is checked (D44, D50)', async () => {
    const text = await breakWith('social_image', 'social_image: /card.png', 'social_image', { 'static/card.png': 'not an image\n' });
    expect(text.stderr).toContain(`${text.at}\`social_image\` "/card.png" is not an image of the type its name says.`);
    const jpeg = await breakWith('social_image', 'social_image: /card.png', 'social_image', {
      'static/card.png': new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]),
    });
    expect(jpeg.stderr).toContain(`${jpeg.at}\`social_image\` "/card.png" holds JPEG data, not PNG.`);
    expect(jpeg.stderr).toMatch(/hint: Rename it to match what it holds, or save it again as PNG\./);
  });
});

/** A PNG signature and nothing else: enough for a file that must exist. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('a site that states no license and no AI preferences, with a social image (D50-D52)', () => {
  let s: Awaited<ReturnType<typeof serveBuilt>>;
  let content: string;

  beforeAll(async () => {
    content = await copyContent();
    let yaml = await readFile(join(content, 'site.yaml'), 'utf8');
    yaml = withBlock(withBlock(yaml, 'license', ''), 'ai_preferences', '');
    yaml = yaml.replace(/^# (The license|What AI).*\n/gm, '');
    await writeFile(
      join(content, 'site.yaml'),
      `${yaml.trimEnd()}\nsocial_image: /cards/site.png\nsocial_image_alt: Hanna Brink at a whiteboard\n`,
    );
    await mkdir(join(content, 'static/cards'), { recursive: true });
    await writeFile(join(content, 'static/cards/site.png'), PNG);
    s = await serveBuilt(content);
  });
  afterAll(async () => {
    await s?.close();
    await rm(content, { recursive: true, force: true });
  });

  it('states nothing about AI use: no Content-Usage header, no signals in robots.txt', async () => {
    for (const path of ['/', '/blog/bounce-handling.md', '/api/v1/posts', '/feed.xml', '/llms-full.txt']) {
      const res = await fetch(s.at(path));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-usage'), path).toBeNull();
    }
    const robots = await (await fetch(s.at('/robots.txt'))).text();
    expect(robots).not.toMatch(/content-signal|content-usage|condition of accessing/i);
    expect(robots).toMatch(/^User-agent: \*\nAllow: \/$/m);
  });

  it('states no license anywhere', async () => {
    expect(await (await fetch(s.at('/'))).text()).not.toContain('rel="license"');
    expect((await (await fetch(s.at('/openapi.json'))).json()).info.license).toBeUndefined();
    expect((await (await fetch(s.at('/api/v1'))).json()).license).toBeNull();
    expect(await (await fetch(s.at('/feed.xml'))).text()).not.toContain('<rights>');
    expect((await (await fetch(s.at('/feed.json'))).json())._license).toBeUndefined();
    expect(await (await fetch(s.at('/llms.txt'))).text()).not.toMatch(/licensed/);
  });

  it('uses social_image for every page without an image of its own, with its alt text', async () => {
    // retiring-pid-files has no image of its own, and bounce-handling only an SVG diagram, which link previews do not show.
    for (const path of ['/', '/about', '/blog', '/blog/retiring-pid-files', '/blog/bounce-handling', '/projects/bouncedesk']) {
      const html = await (await fetch(s.at(path))).text();
      expect(html, path).toContain(`<meta property="og:image" content="${SITE}/cards/site.png">`);
      expect(html, path).toContain('<meta property="og:image:alt" content="Hanna Brink at a whiteboard">');
      expect(html, path).toContain('<meta name="twitter:card" content="summary_large_image">');
    }
  });
});

describe('the sample states its license and AI preferences everywhere (D51, D52, D53)', () => {
  let s: Awaited<ReturnType<typeof serveBuilt>>;
  beforeAll(async () => {
    s = await serveBuilt();
  });
  afterAll(() => s?.close());

  it('sends Content-Usage on pages, twins (both ways) and the API, errors included', async () => {
    const asked: [string, Record<string, string>][] = [
      ['/', {}],
      ['/blog/bounce-handling', {}],
      ['/blog/bounce-handling', { accept: 'text/markdown' }],
      ['/about.md', {}],
      ['/api/v1/posts/bounce-handling', {}],
      ['/api/v1/posts?tag=email&limit=1&offset=1', {}],
      ['/api/v1/posts/no-such-post', {}],
      // The documents that carry the writing whole.
      ['/feed.xml', {}],
      ['/feed.json', {}],
      ['/llms-full.txt', {}],
    ];
    for (const [path, headers] of asked) {
      const res = await fetch(s.at(path), { headers });
      expect(res.headers.get('content-usage'), path).toBe('search=y, ai-use=y, train-ai=n');
      expect(res.headers.get('access-control-expose-headers'), path).toMatch(/Content-Usage/);
    }
  });

  it('sends Content-Usage with the images too, originals and their variants', async () => {
    const page = await (await fetch(s.at('/'))).text();
    const photo = /<img[^>]+src="(\/media\/[^"]+)"[^>]+srcset="(\/media\/[^" ]+)/.exec(page);
    expect(photo, 'the home page shows the photo from /media/ with a variant').not.toBeNull();
    for (const path of [photo![1]!, photo![2]!]) {
      const res = await fetch(s.at(path));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^image\//);
      expect(res.headers.get('content-usage'), path).toBe('search=y, ai-use=y, train-ai=n');
    }
  });

  it('writes both conventions in robots.txt, with the Content Signals policy text', async () => {
    const robots = await (await fetch(s.at('/robots.txt'))).text();
    const group = robots.slice(robots.indexOf('User-agent: *')).split('\n\n')[0]!.split('\n');
    expect(group).toEqual([
      'User-agent: *',
      'Content-Signal: search=yes, ai-input=yes, ai-train=no',
      'Content-Usage: search=y, ai-use=y, train-ai=n',
      'Allow: /',
    ]);
    expect(robots).toContain('# As a condition of accessing this website, you agree to\n# abide by the following content signals:');
    expect(robots).toContain('# ai-train: training or fine-tuning AI models.');
    expect(robots).toContain('UNION DIRECTIVE 2019/790');
    // Every non-comment line is a field RFC 9309 readers can skip or read.
    for (const line of robots.split('\n')) expect(line).toMatch(/^(#.*|[A-Za-z-]+: .+|)$/);
  });

  it('puts the license in the footer, OpenAPI, the discovery document, both feeds, and llms.txt', async () => {
    const html = await (await fetch(s.at('/blog'))).text();
    expect(html).toContain(`<a rel="license" href="${LICENSE.url}">${LICENSE.name}</a>`);
    expect((await (await fetch(s.at('/openapi.json'))).json()).info.license).toEqual(LICENSE);
    expect((await (await fetch(s.at('/api/v1'))).json()).license).toEqual(LICENSE);
    expect(await (await fetch(s.at('/feed.xml'))).text()).toContain(`<rights>${LICENSE.name}: ${LICENSE.url}</rights>`);
    expect((await (await fetch(s.at('/feed.json'))).json())._license).toEqual(LICENSE);
    expect(await (await fetch(s.at('/llms.txt'))).text()).toContain(`The writing is licensed under [${LICENSE.name}](${LICENSE.url}).`);
  });

  it('gives every twin its token estimate in X-Markdown-Tokens, and every llms.txt item one', async () => {
    for (const [path, headers] of [
      ['/about.md', {}],
      ['/blog/bounce-handling.md', {}],
      ['/blog/bounce-handling', { accept: 'text/markdown' }],
      ['/index.md', {}],
    ] as const) {
      const res = await fetch(s.at(path), { headers });
      const body = await res.text();
      expect(res.headers.get('x-markdown-tokens'), path).toBe(String(estimateTokens(body)));
      expect(Number(res.headers.get('x-markdown-tokens'))).toBeGreaterThan(body.length / 8);
    }
    const llms = await (await fetch(s.at('/llms.txt'))).text();
    const items = llms.split('\n').filter((l) => l.startsWith('- ['));
    expect(items.length).toBeGreaterThan(40);
    for (const item of items) expect(item).toMatch(/ \(~[1-9][\d,]* tokens?\)$/);
    // The estimate agrees with the header of the twin it links, to two significant digits.
    const about = items.find((l) => l.includes('/about.md)'))!;
    const header = Number((await fetch(s.at('/about.md'))).headers.get('x-markdown-tokens'));
    const shown = Number(/\(~([\d,]+) tokens\)$/.exec(about)![1]!.replaceAll(',', ''));
    expect(Math.abs(shown - header) / header).toBeLessThan(0.05);
    // And each JSON answer's estimate is of the answer it links, whole: ceil(bytes / 4), to two significant digits.
    const twoDigits = (n: number) => {
      const step = 10 ** Math.max(0, String(n).length - 2);
      return Math.round(n / step) * step;
    };
    const answers = items.filter((l) => /\]\(https:\/\/hannabrink\.example\/api\/v1(\/(changes|availability))?\)/.test(l));
    expect(answers).toHaveLength(3);
    for (const item of answers) {
      const url = /\]\(([^)]+)\)/.exec(item)![1]!;
      const bytes = (await (await fetch(s.at(url))).arrayBuffer()).byteLength;
      const estimate = Number(/\(~([\d,]+) tokens?\)$/.exec(item)![1]!.replaceAll(',', ''));
      expect(estimate, url).toBe(twoDigits(Math.ceil(bytes / 4)));
    }
    // The MCP item's is of the whole tools/list answer, as an initialize-based client receives it.
    const mcp = items.find((l) => l.includes('](https://hannabrink.example/mcp)'))!;
    const listed = await fetch(s.at('/mcp'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(listed.status).toBe(200);
    const bytes = (await listed.arrayBuffer()).byteLength;
    expect(Number(/\(~([\d,]+) tokens?\)$/.exec(mcp)![1]!.replaceAll(',', ''))).toBe(twoDigits(Math.ceil(bytes / 4)));
  });

  it('makes every site-root link absolute where the reader has no base URL: feeds, llms-full.txt, twins, content_markdown', async () => {
    const post = await (await fetch(s.at('/api/v1/posts/capitalising-vs-expensing-cloud-spend'))).json();
    expect(post.content_markdown).toContain(`[Bouncedesk](${SITE}/projects/bouncedesk)`);
    const documents = [
      '/llms-full.txt',
      '/blog/capitalising-vs-expensing-cloud-spend.md',
      '/about.md',
      '/services.md',
      '/projects/bouncedesk.md',
    ];
    for (const path of documents)
      expect(await (await fetch(s.at(path))).text(), path).not.toMatch(/\]\(\/(?!\/)|^\[[^\]]+\]:\s*<?\/(?!\/)/m);
    const atom = await (await fetch(s.at('/feed.xml'))).text();
    expect(atom).toContain(`href=&quot;${SITE}/projects/bouncedesk&quot;`);
    expect(atom).not.toMatch(/(href|src)=&quot;\/(?!\/)/);
    const feed = await (await fetch(s.at('/feed.json'))).json();
    for (const item of feed.items) {
      expect(item.content_html, item.id).not.toMatch(/(href|src)="\/(?!\/)/);
      expect(item.content_text, item.id).not.toMatch(/\]\(\/(?!\/)/);
    }
    // The page itself keeps its site-root link, so it works on any host and in folio serve.
    expect(await (await fetch(s.at('/blog/capitalising-vs-expensing-cloud-spend'))).text()).toContain('href="/projects/bouncedesk"');
  });

  it('states updated in the twin of a post that has it', async () => {
    const twin = await (await fetch(s.at('/blog/email-deliverability-b2b-saas.md'))).text();
    expect(twin).toMatch(/^- Published: 2024-11-25$/m);
    expect(twin).toMatch(/^- Updated: 2025-02-24$/m);
  });
});

describe('the card image a file holds, by its first bytes (D50)', () => {
  const bytes = (...parts: (string | number[])[]) =>
    new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
  it.each([
    ['image/png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a])],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xdb])],
    ['image/gif', bytes('GIF89a', [1, 0])],
    ['image/webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')],
    ['image/avif', bytes([0, 0, 0, 0x20], 'ftypavif')],
    [null, bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    [null, bytes([0x89], 'PN')],
    [null, new Uint8Array(0)],
  ])('is %s', (type, start) => {
    expect(cardImageType(start)).toBe(type);
  });
});
