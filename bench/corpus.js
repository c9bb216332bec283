// Deterministic benchmark corpora: N posts of about 1 KB each, with
// front-matter (title, date, tags), paragraphs, lists, GFM tables, code blocks
// and internal links, plus the few other files folio needs (D2). The same size
// always yields the same bytes; a corpus is generated once and cached in
// bench/.corpora/<size>/, keyed by GENERATOR_VERSION.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

/** Bump when the output of this file changes, so cached corpora are rebuilt. */
export const GENERATOR_VERSION = 1;

export const CORPORA_DIR = join(dirname(fileURLToPath(import.meta.url)), '.corpora');

/** mulberry32: a small seeded PRNG, so every run writes identical corpora. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Words in the site's six topics, so search queries have real terms to find.
export const WORDS = `
agent harness sandbox repository review pull request commit diff patch prompt model token context tool
daemon process signal shutdown systemd unit socket activation readiness restart supervisor pid file journal
ssh bastion proxyjump certificate key host jump tunnel agent forwarding instance cloud compute fleet
monorepo pipeline cache remote build affected target graph dependency artifact runner queue minutes cost
email deliverability dmarc dkim spf bounce complaint inbox relay sender domain alignment reputation
vat invoice subscription expense capital depreciation accountant quarter revenue ledger receipt
latency throughput deploy rollout canary incident runbook alert metric dashboard log trace budget
team engineer client contract audit migration config secret rotation policy permission boundary
fast slow cheap careful small large early late stable flaky clean broken shared private public
measured moved replaced removed added wrote read tested shipped dropped kept learned found fixed
week month year morning night hour day release version branch merge rebase tag history
`
  .trim()
  .split(/\s+/);

export const TAGS = [
  'agents',
  'ci',
  'monorepo',
  'caching',
  'daemons',
  'systemd',
  'linux',
  'ssh',
  'security',
  'cloud',
  'email',
  'deliverability',
  'dmarc',
  'vat',
  'tax',
  'bookkeeping',
  'saas',
  'devboxes',
  'reliability',
  'observability',
  'migration',
  'costs',
  'review',
  'sandboxing',
  'build-pipelines',
  'remote-access',
  'incidents',
  'tooling',
  'writing',
  'consulting',
];

const LANGS = [
  [
    'bash',
    (w) => `ssh -J bastion.example ${w(1)}@${w(1)}.internal\nsystemctl restart ${w(1)}.service\njournalctl -u ${w(1)} --since "-1h"`,
  ],
  ['yaml', (w) => `${w(1)}:\n  ${w(1)}: true\n  ${w(1)}: [${w(1)}, ${w(1)}]\n  retries: 3`],
  ['ts', (w) => `export function ${w(1)}(${w(1)}: string): number {\n  return ${w(1)}.length * 2;\n}`],
  ['ini', (w) => `[Service]\nType=notify\nExecStart=/usr/bin/${w(1)}\nTimeoutStopSec=30`],
];

function generator(seed) {
  const rand = prng(seed);
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rand() * list.length)];
  // Squaring skews towards the head of the list, like real word frequencies.
  const word = () => WORDS[Math.floor(rand() * rand() * WORDS.length)];
  const words = (n) => Array.from({ length: n }, word).join(' ');
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const sentence = () => `${cap(words(int(7, 15)))}${pick(['.', '.', '.', ',  and it held.', ' — twice.'])}`.replace(/\s+/g, ' ');
  const paragraph = (n) => Array.from({ length: n }, sentence).join(' ');
  return { rand, int, pick, word, words, cap, sentence, paragraph };
}

function yamlString(s) {
  return JSON.stringify(s);
}

function post(i, g, slugs) {
  const title = g.cap(g.words(g.int(3, 7)));
  const slug = `${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}-${String(i).padStart(5, '0')}`;
  const day = new Date(Date.UTC(2014, 0, 1) + g.int(0, 4686) * 86400000).toISOString().slice(0, 10); // up to 2026-10-31
  const tags = [...new Set(Array.from({ length: g.int(1, 4) }, () => g.pick(TAGS)))];
  const parts = [g.paragraph(g.int(4, 6))];
  if (g.rand() < 0.5) parts.push(`## ${g.cap(g.words(g.int(2, 4)))}`);
  if (g.rand() < 0.45) parts.push(Array.from({ length: g.int(3, 5) }, () => `- ${g.cap(g.words(g.int(3, 8)))}`).join('\n'));
  if (g.rand() < 0.35) {
    const [lang, code] = g.pick(LANGS);
    parts.push(`\`\`\`${lang}\n${code((n) => g.words(n).replace(/\s+/g, '-'))}\n\`\`\``);
  }
  if (g.rand() < 0.3) {
    const rows = Array.from({ length: g.int(2, 4) }, () => `| ${g.word()} | ${g.int(1, 999)} | ${g.words(2)} |`);
    parts.push(['| Item | Count | Note |', '| --- | ---: | --- |', ...rows].join('\n'));
  }
  let closing = g.paragraph(g.int(2, 3));
  if (slugs.length && g.rand() < 0.25) closing += ` See also [an earlier post](/blog/${g.pick(slugs)}).`;
  if (g.rand() < 0.1) closing += ` The \`${g.word()}\` flag matters here.[^1]\n\n[^1]: ${g.sentence()}`;
  parts.push(closing);
  const front = ['---', `title: ${yamlString(title)}`, `date: ${day}`, 'tags:', ...tags.map((t) => `  - ${t}`), '---'].join('\n');
  return { slug, text: `${front}\n\n${parts.join('\n\n')}\n` };
}

const SITE_YAML = `title: "Bench Consulting"
description: "A generated site for folio's benchmarks."
site_url: https://bench.example
language: en
`;

const PROFILE = `---
name: Bench Person
headline: "Independent platform engineer (generated for benchmarks)"
location: "Utrecht, Netherlands"
expertise:
  - "Monorepo build pipelines"
  - "Linux daemon lifecycles"
  - "Email deliverability"
availability:
  status: limited
  note: "Two days a week from December."
contact:
  email: hello@bench.example
  url: https://bench.example/about
---

`;

function others(g) {
  const files = { 'site.yaml': SITE_YAML, 'profile.md': `${PROFILE}${g.paragraph(4)}\n\n${g.paragraph(3)}\n` };
  ['build-pipelines', 'daemon-reliability', 'email-deliverability'].forEach((id, n) => {
    files[`services/${id}.md`] =
      `---\ntitle: ${yamlString(g.cap(id.replace(/-/g, ' ')))}\nsummary: ${yamlString(g.sentence())}\nbest_fit:\n  - ${yamlString(g.sentence())}\n  - ${yamlString(g.sentence())}\norder: ${n + 1}\n---\n\n${g.paragraph(3)}\n\n- ${g.sentence()}\n- ${g.sentence()}\n`;
  });
  [
    ['cache-proxy', 'live'],
    ['jump-config', 'live'],
    ['pid-watch', 'sunset'],
    ['mail-remediation', 'delivered'],
  ].forEach(([id, status], n) => {
    files[`projects/${id}.md`] =
      `---\ntitle: ${yamlString(g.cap(id.replace(/-/g, ' ')))}\nstatus: ${status}\nsummary: ${yamlString(g.sentence())}\nstarted: 202${n}-0${n + 1}\ntags:\n  - ${TAGS[n]}\n---\n\n${g.paragraph(3)}\n`;
  });
  return files;
}

/** Every file of a corpus of `size` posts, path (relative to content/) → text. */
export function corpusFiles(size) {
  const g = generator(0x5eed + size);
  const files = others(g);
  const slugs = [];
  for (let i = 1; i <= size; i++) {
    const p = post(i, g, slugs);
    slugs.push(p.slug);
    files[`posts/${p.slug}.md`] = p.text;
  }
  return files;
}

// ------------------------------------------------------------ images (D44)

/** Distinct images of a corpus with images: half PNG diagrams, half SVG; one post in IMAGE_EVERY shows one. */
export const IMAGE_COUNT = 24;
export const IMAGE_EVERY = 10;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A deterministic RGB PNG (a banded chart of `seed`), written without an image library. */
export function pngImage(width, height, seed) {
  const rand = prng(seed);
  const bands = Array.from({ length: 12 }, () => [
    Math.floor(rand() * 200),
    Math.floor(rand() * 200),
    Math.floor(rand() * 200),
    0.2 + rand() * 0.75,
  ]);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const band = bands[Math.floor((x / width) * bands.length)];
      const filled = y > height * (1 - band[3]);
      const o = row + 1 + x * 3;
      raw[o] = filled ? band[0] : 250;
      raw[o + 1] = filled ? band[1] : 250;
      raw[o + 2] = filled ? band[2] : 248;
    }
  }
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function svgImage(i) {
  const boxes = Array.from(
    { length: 4 },
    (_, k) =>
      `<rect x="${20 + k * 230}" y="60" width="200" height="80" rx="10" fill="#eef2ff" stroke="#4338ca"/><text x="${120 + k * 230}" y="106" text-anchor="middle">step ${k + 1}.${i}</text>`,
  ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 200" width="960" height="200" font-family="sans-serif" font-size="18"><rect width="960" height="200" fill="#fff"/>${boxes}</svg>\n`;
}

/** The corpus of `size` posts with images: every IMAGE_EVERY-th post shows one of IMAGE_COUNT images in posts/img/. */
export function corpusFilesWithImages(size) {
  const files = corpusFiles(size);
  const images = {};
  for (let i = 0; i < IMAGE_COUNT; i++)
    images[`posts/img/figure-${i}.${i % 2 ? 'svg' : 'png'}`] = i % 2 ? svgImage(i) : pngImage(1200, 675, 0xf00d + i);
  const names = Object.keys(images);
  Object.keys(files)
    .filter((p) => p.startsWith('posts/'))
    .forEach((path, n) => {
      if (n % IMAGE_EVERY) return;
      const image = names[(n / IMAGE_EVERY) % names.length];
      const [front, body] = files[path].split('\n---\n');
      files[path] =
        `${front}\n---\n\n![Figure ${n}: the steps of the pipeline this post measures](./${image.slice('posts/'.length)})\n${body}`;
    });
  return { ...files, ...images };
}

/**
 * The corpus folder for `size` posts (its content/ is folio's --content),
 * generated on first use; with `images`, the same posts with images (D44)
 * in a folder of its own. A stamp file records the generator version; a
 * stale or half-written corpus is replaced.
 */
export async function ensureCorpus(size, { images = false } = {}) {
  const dir = join(CORPORA_DIR, images ? `${size}-images` : String(size));
  const stamp = join(dir, 'STAMP');
  const want = `generator ${GENERATOR_VERSION}, ${size} posts${images ? `, ${IMAGE_COUNT} images` : ''}\n`;
  if (existsSync(stamp) && (await readFile(stamp, 'utf8')) === want) return dir;
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  const files = images ? corpusFilesWithImages(size) : corpusFiles(size);
  for (const sub of ['posts', 'services', 'projects', ...(images ? ['posts/img'] : [])])
    await mkdir(join(tmp, 'content', sub), { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(tmp, 'content', path), text);
  await writeFile(join(tmp, 'STAMP'), want);
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
  return dir;
}

// `node bench/corpus.js 1000` prints the corpus directory (generating it).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const arg of process.argv.slice(2)) console.log(await ensureCorpus(Number(arg)));
}
