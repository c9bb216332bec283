// The prebuilt search index (D12, D38, D40): what the build writes, the
// loader the functions (and the benchmark) call, and what that loader may
// import.
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_INDEX_PATH } from '../build/core/files.js';
import { openSearchIndex, SEARCH_INDEX_FORMAT, SEARCH_INDEX_VERSION, SearchIndexError } from '../build/core/search/index.js';
import { DocLines, DOCS_MARK, encodeDocs } from '../build/core/search/docs.js';
import type { StoredDoc } from '../build/core/search/format.js';
import { createFolioTokenizer, ENGLISH } from '../build/core/search/tokenizer.js';
import { withinOneEdit } from '../build/core/search/typo.js';
import { buildSearchIndex } from '../build/emit/search-index.js';
import { plainText } from '../build/emit/search-sources.js';
import { buildInto } from './helpers/site.js';
import { bundleMeta } from './helpers/bundle.js';

let built: Awaited<ReturnType<typeof buildInto>>;
let text: string;

beforeAll(async () => {
  built = await buildInto();
  text = await readFile(join(built.out, SEARCH_INDEX_PATH), 'utf8');
});
afterAll(() => rm(join(built.out, '..'), { recursive: true, force: true }));

describe('the index file', () => {
  it('is versioned, counts its documents and hashes its data', () => {
    const file = JSON.parse(text);
    expect(file.format).toBe(SEARCH_INDEX_FORMAT);
    expect(file.version).toBe(SEARCH_INDEX_VERSION);
    expect(file.documents).toBe(built.site.posts.length + built.site.projects.length + built.site.services.length);
    const data = text.slice(text.indexOf('"data":') + '"data":'.length, text.lastIndexOf('}'));
    expect(JSON.parse(data)).toEqual(file.data);
    expect(file.hash).toBe(`sha256:${createHash('sha256').update(data).digest('hex')}`);
  });

  it('is the same bytes for the same site (D40)', async () => {
    expect(Buffer.from(await buildSearchIndex(built.site)).toString('utf8')).toBe(text);
  });

  it('holds no draft and no scheduled post', () => {
    const ids = JSON.parse(text).data.orama.internalDocumentIDStore.internalIdToId as string[];
    expect(ids).toContain('post:email-deliverability-b2b-saas');
    expect(ids).not.toContain('post:socket-activation-zero-downtime');
    expect(ids.filter((id) => id.startsWith('post:'))).toHaveLength(built.site.posts.length);
  });
});

describe('the stored documents', () => {
  it('are one string of printable ASCII with nothing for JSON to escape, and read back character for character', () => {
    const file = JSON.parse(text);
    const docs: string = file.data.orama.docs;
    expect(docs).toMatch(/^[\x20-\x7e]*$/);
    expect(docs).not.toMatch(/["\\]/);
    expect(text.split(`"docs":"${DOCS_MARK}`)).toHaveLength(2);
    expect(new DocLines(docs).count).toBe(file.documents);
    const tricky: StoredDoc = [
      'post',
      'naive-cafe',
      'Naïve “café” — ✓ 😀 ~~folio-docs~~',
      'Line\nbreak\u2028 and \\ "quotes" | ^ ~7e',
      '/blog/naive-cafe',
      '/api/v1/posts/naive-cafe',
      'Ünïcödé\tbody\u0000',
    ];
    const encoded = encodeDocs([tricky, ['service', 's', '', '', '', '', ''], tricky]);
    expect(encoded).toMatch(/^[\x20-\x7e]*$/);
    expect(encoded.split(DOCS_MARK)).toHaveLength(2);
    const lines = new DocLines(encoded);
    expect(lines.count).toBe(3);
    expect(lines.get(1)).toEqual(tricky);
    expect(lines.get(2)).toEqual(['service', 's', '', '', '', '', '']);
    expect(lines.get(3)).toEqual(tricky);
    expect(lines.get(0)).toBeUndefined();
    expect(lines.get(4)).toBeUndefined();
    expect(new DocLines(encodeDocs([])).count).toBe(0);
  });

  it('replaces some documents and keeps the text of the others (a patched index)', () => {
    const doc = (id: string, body: string) =>
      ['post', id, `Title ${id}`, 'summary', `/blog/${id}`, `/api/v1/posts/${id}`, body] as StoredDoc;
    const docs = [doc('a', 'first ~ body'), doc('b', 'second “body”'), doc('c', 'third'), doc('d', 'fourth')];
    const lines = new DocLines(encodeDocs(docs));
    const replaced = new Map([
      [4, doc('d', 'fourth, edited ✓')],
      [2, doc('b', '')],
    ]);
    const patched = lines.with(replaced);
    const edited = [docs[0]!, replaced.get(2)!, docs[2]!, replaced.get(4)!];
    expect(patched.pieces().join('')).toBe(encodeDocs(edited));
    expect([1, 2, 3, 4].map((id) => patched.get(id))).toEqual(edited);
    // Put in twice: the later documents win, the earlier stay.
    const again = patched.with(new Map([[1, doc('a', 'first, edited')]]));
    expect(again.pieces().join('')).toBe(encodeDocs([doc('a', 'first, edited'), ...edited.slice(1)]));
    expect(lines.with(new Map()).pieces()).toEqual([encodeDocs(docs)]);
    expect(lines.pieces()).toEqual([encodeDocs(docs)]);
    expect(() => lines.with(new Map([[5, doc('e', '')]]))).toThrow(/no stored document 5 of 4/);
  });

  it('refuses documents that are not what they announce', () => {
    const encoded = encodeDocs([['post', 'a', 'A', '', '/a', '/api/a', 'text']]);
    expect(() => new DocLines(encoded.replace(`${DOCS_MARK}1`, `${DOCS_MARK}2`))).toThrow(/1 of the 2/);
    expect(() => new DocLines(encoded.replace(DOCS_MARK, ''))).toThrow(TypeError);
    expect(() => new DocLines(`${DOCS_MARK}x^`)).toThrow(/how many/);
  });
});

describe('openSearchIndex (the loader the functions and the benchmark call)', () => {
  it('opens the file text and searches it', async () => {
    const engine = openSearchIndex(text);
    const { total, hits } = engine.search('deliverabilty', 3);
    expect(total).toBeGreaterThan(3);
    expect(hits).toHaveLength(3);
    expect(hits[0]).toMatchObject({
      type: 'post',
      id: 'email-deliverability-b2b-saas',
      url: 'https://hannabrink.example/blog/email-deliverability-b2b-saas',
    });
  });

  it('answers alike whether it can cut the stored documents out of the text before parsing or not', async () => {
    const fast = openSearchIndex(text);
    // Reformatted JSON: the same data, but `"docs":"` is now `"docs": "`, so the whole text is parsed.
    const slow = openSearchIndex(JSON.stringify(JSON.parse(text), null, 1));
    for (const q of ['deliverabilty', 'ssh certificates', 'email', 'cache monorepo', 'zyxwvut'])
      expect(fast.search(q, 50)).toEqual(slow.search(q, 50));
  });

  it('gives the same answers query after query (its score buffer is reused)', async () => {
    const engine = openSearchIndex(text);
    const first = engine.search('ssh certificates', 10);
    engine.search('email', 10);
    engine.search('cache monorepo', 10);
    expect(engine.search('ssh certificates', 10)).toEqual(first);
  });

  it.each([
    ['not JSON', '{"format":', /not valid JSON/],
    ['null', 'null', /not a JSON object/],
    ['an array', '[1,2]', /not a JSON object/],
    ['an object of another kind', '{"hello":"world"}', /format null/],
    ['another format', '{"format":"something-else","version":1}', /format "something-else"/],
  ])('refuses %s with an error that says to rebuild', (_, input, message) => {
    expect(() => openSearchIndex(input)).toThrow(SearchIndexError);
    expect(() => openSearchIndex(input)).toThrow(message);
    expect(() => openSearchIndex(input)).toThrow(/folio build/);
  });

  it('refuses an index of another version rather than misread it', () => {
    const other = text.replace(`"version":${SEARCH_INDEX_VERSION}`, `"version":${SEARCH_INDEX_VERSION + 1}`);
    expect(() => openSearchIndex(other)).toThrow(
      new RegExp(`version ${SEARCH_INDEX_VERSION + 1}; this folio reads version ${SEARCH_INDEX_VERSION}`),
    );
  });

  it('imports nothing from the build: only core modules and Orama (D38)', async () => {
    const metafile = await bundleMeta('build/core/search/index.ts', 'external');
    const inputs = Object.keys(metafile.inputs);
    expect(
      inputs.every((p) => p.startsWith('build/core/')),
      inputs.join(', '),
    ).toBe(true);
    const imports = Object.values(metafile.outputs).flatMap((o) => o.imports);
    const externals = (kind: string) => [...new Set(imports.filter((i) => i.kind === kind).map((i) => i.path))].sort();
    // Of Orama, only the tokenizer: its index, trees and sorter are build-time code, kept out of the functions' search chunk.
    expect(externals('import-statement')).toEqual(['@orama/orama/components', '@orama/stemmers/english']);
    // No other language's stemmer (README: every cold start would parse them); their stop words come with the index.
    expect(externals('dynamic-import')).toEqual([]);
  });
});

describe('the search chunk of the functions', () => {
  it('is not loaded until the first search: the handler reaches it by import() only', async () => {
    const { inputs } = await bundleMeta('build/runtime/handler.ts', 'external');
    // What the handler loads when the function starts: its static imports, transitively.
    const eager = new Set<string>();
    const visit = (path: string) => {
      if (eager.has(path) || !inputs[path]) return;
      eager.add(path);
      for (const i of inputs[path]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
    };
    visit('build/runtime/handler.ts');
    expect([...eager].filter((p) => p.startsWith('build/core/search/') || p === 'build/runtime/search.ts')).toEqual([]);
    const statics = [...eager].flatMap((p) =>
      inputs[p]!.imports.filter((i) => i.external && i.kind === 'import-statement').map((i) => i.path),
    );
    expect(statics.filter((p) => p.startsWith('@orama/'))).toEqual([]);
    expect(inputs['build/runtime/handler.ts']!.imports).toContainEqual(
      expect.objectContaining({ path: 'build/runtime/search.ts', kind: 'dynamic-import' }),
    );
  });

  it("holds the engine, Orama's tokenizer and the stemmer, and nothing of the build", async () => {
    // What ends up in the bundle (esbuild lists the modules it tree-shook away too, at zero bytes).
    const output = Object.values((await bundleMeta('build/runtime/search.ts')).outputs)[0]!;
    const inputs = Object.entries(output.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([p]) => p);
    const ours = inputs.filter((p) => !p.startsWith('node_modules/'));
    // The runtime's edge reader comes along for the deployment head (the build id the shards must carry).
    expect(
      ours.every((p) => p.startsWith('build/core/') || p === 'build/runtime/search.ts' || p === 'build/runtime/edge.ts'),
      ours.join(', '),
    ).toBe(true);
    const orama = inputs.filter((p) => p.startsWith('node_modules/'));
    expect(
      orama.every((p) =>
        /^node_modules\/@orama\/(orama\/dist\/[^/]+\/(components\.js|components\/(tokenizer\/|defaults)|errors|utils)|stemmers\/|stopwords\/)/.test(
          p,
        ),
      ),
      orama.join(', '),
    ).toBe(true);
  });
});

describe('the text that is indexed', () => {
  it('keeps words of separate blocks apart and drops Markdown syntax', () => {
    const md =
      '# Title\n\nFirst paragraph ends here.\n\n- item one\n- item two\n\n| a | b |\n| --- | --- |\n| cell | *other* |\n\nSee [the docs](https://x.example) and `code`.[^1]\n\n[^1]: A note.\n\n```sh\nssh -J bastion host\n```';
    const text = plainText(md);
    expect(text.split(/\s+/)).toEqual(
      expect.arrayContaining(['Title', 'here.', 'one', 'item', 'two', 'cell', 'other', 'docs', 'code.', 'ssh', 'bastion']),
    );
    expect(text).not.toMatch(/[#|*`[\]]|https:|---/);
  });
});

describe('English words (D12)', () => {
  const tokens = (text: string) => createFolioTokenizer().tokenize(text, 'english', 'body');

  it.each([
    'Bastion hosts — the boring kind — keep “agents” out’s way…',
    'Deploys fail—rarely—when the pipeline’s checks run first 🚀 then ship',
    '«Runbooks» • on-call ‹rotations› ¶ §4 ±2 → done',
  ])('split at punctuation outside ASCII as at a space: %s', (text) => {
    const spaced = text.replace(/[^\x00-\x7f’]/gu, ' ');
    expect(tokens(text)).toEqual(tokens(spaced));
    expect(ENGLISH.words(text).filter(Boolean)).toEqual(ENGLISH.words(spaced).filter(Boolean));
  });

  it.each([
    ['naïve', 'deployments'],
    ['Prüfliste', 'reviews'],
    ['𠀀', 'runners'],
    ['²', 'certificates'],
  ])('keep a word with a letter or digit outside the alphabet whole between dashes: %s', (other, english) => {
    expect(tokens(`${english} — ${other}—${english}`)).toEqual([...tokens(english), ...tokens(other), ...tokens(english)]);
    expect(tokens(other)).toHaveLength(1);
  });
});

describe('one typo (D12)', () => {
  it.each([
    ['deliverabilty', 'deliverability', true],
    ['certficates', 'certificates', true],
    ['bastoin', 'bastion', true],
    ['bastionn', 'bastion', true],
    ['bastxon', 'bastion', true],
    ['basiton', 'bastion', true],
    ['bsatoin', 'bastion', false],
    ['bstoin', 'bastion', false],
  ])('%s → %s: %s', (a, b, near) => {
    expect(withinOneEdit(a, b)).toBe(near);
    expect(withinOneEdit(b, a)).toBe(near);
  });
});
