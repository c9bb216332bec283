// The remark floor (issue 8): the least work any remark-based build of this
// corpus must do, in one process on one thread. For every Markdown file:
// read it, split the front-matter with gray-matter, parse once with
// remark-parse + remark-gfm, render HTML through the same plugins folio uses
// (remark-rehype, rehype-sanitize, rehype-highlight, rehype-stringify), and
// write that HTML to one file. Nothing else: no pages, no JSON, no twins.
//
//   node bench/peers/floor.js <content dir> <out dir>
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import matter from 'gray-matter';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

const [contentDir, outDir] = process.argv.slice(2);
if (!contentDir || !outDir) {
  console.error('usage: node bench/peers/floor.js <content dir> <out dir>');
  process.exit(2);
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, { ...defaultSchema, clobber: [], clobberPrefix: '' })
  .use(rehypeHighlight, { detect: false })
  .use(rehypeStringify)
  .freeze();

async function markdownFiles(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => join(e.parentPath ?? e.path, e.name)).sort();
}

const files = await markdownFiles(contentDir);
// Reads and writes are issued together so the one thread never waits on
// the disk between two posts; the floor is the rendering, not the I/O.
const texts = await Promise.all(files.map((f) => readFile(f, 'utf8')));
await mkdir(outDir, { recursive: true });
const writes = [];
texts.forEach((text, i) => {
  const { content } = matter(text);
  const tree = processor.parse(content);
  writes.push(writeFile(join(outDir, `${i + 1}.html`), processor.stringify(processor.runSync(tree))));
});
await Promise.all(writes);
console.log(`floor: rendered ${files.length} Markdown files`);
