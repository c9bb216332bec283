// The remark floor: the least work any remark-based build of this
// corpus must do. For every Markdown file: read it, split the front-matter
// with gray-matter, parse once with remark-parse + remark-gfm, render HTML
// through the same plugins folio uses (remark-rehype, rehype-sanitize,
// rehype-highlight, rehype-stringify), and write that HTML to one file.
// Nothing else: no pages, no JSON, no twins.
//
//   node bench/peers/floor.js <content dir> <out dir> [--workers N]
//
// With --workers N the files are split into N contiguous shares, each
// rendered by its own worker thread: what the same work costs spread over
// the cores (the default, 1, is the single-threaded floor of the issue).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import matter from 'gray-matter';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

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
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => join(e.parentPath ?? e.path, e.name))
    .sort();
}

/** Renders files[i] to out/<first + i + 1>.html. Reads and writes are issued together so the thread never idles on the disk. */
async function renderAll(files, outDir, first) {
  const texts = await Promise.all(files.map((f) => readFile(f, 'utf8')));
  const writes = [];
  texts.forEach((text, i) => {
    const { content } = matter(text);
    const tree = processor.parse(content);
    writes.push(writeFile(join(outDir, `${first + i + 1}.html`), processor.stringify(processor.runSync(tree))));
  });
  await Promise.all(writes);
  return files.length;
}

if (!isMainThread) {
  const { files, outDir, first } = workerData;
  parentPort.postMessage(await renderAll(files, outDir, first));
} else {
  const args = process.argv.slice(2);
  const w = args.indexOf('--workers');
  const workers = w === -1 ? 1 : Number(args.splice(w, 2)[1]);
  const [contentDir, outDir] = args;
  if (!contentDir || !outDir || !(workers >= 1)) {
    console.error('usage: node bench/peers/floor.js <content dir> <out dir> [--workers N]');
    process.exit(2);
  }
  const files = await markdownFiles(contentDir);
  await mkdir(outDir, { recursive: true });
  let n;
  if (workers === 1) n = await renderAll(files, outDir, 0);
  else {
    const share = Math.ceil(files.length / workers);
    const counts = await Promise.all(
      Array.from({ length: workers }, (_, i) => {
        const worker = new Worker(new URL(import.meta.url), {
          workerData: { files: files.slice(i * share, (i + 1) * share), outDir, first: i * share },
        });
        return new Promise((ok, fail) => {
          worker.once('message', ok);
          worker.once('error', fail);
        });
      }),
    );
    n = counts.reduce((a, b) => a + b, 0);
  }
  console.log(`floor: rendered ${n} Markdown files with ${workers} thread${workers === 1 ? '' : 's'}`);
}
