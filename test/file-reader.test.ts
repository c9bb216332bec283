// The reader the functions use under folio serve (as env.ASSETS on a host):
// a file's exact bytes, read at once or through the thread pool by size, and
// null for anything that is not a file of the served directory.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileReader } from '../build/serve-files.js';

let root: string;
let dir: string;
const small = Buffer.from('{"tag":"é"}\n');
// Past the size read at once, with bytes that differ along the whole file.
const large = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 7919) % 251));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'folio-reader-'));
  dir = join(root, 'dist');
  await mkdir(join(dir, '_folio', 'edge'), { recursive: true });
  await writeFile(join(dir, '_folio', 'edge', 'head.json'), small);
  await writeFile(join(dir, 'large.bin'), large);
  await writeFile(join(dir, 'empty.txt'), '');
  await writeFile(join(root, 'secret.txt'), 'outside');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('fileReader', () => {
  it('reads small and large files byte for byte', async () => {
    const read = fileReader(dir);
    expect(Buffer.from((await read('_folio/edge/head.json'))!).equals(small)).toBe(true);
    expect(Buffer.from((await read('large.bin'))!).equals(large)).toBe(true);
    expect((await read('empty.txt'))!.byteLength).toBe(0);
  });

  it('answers null for a missing file, a directory, and a path outside the directory', async () => {
    const read = fileReader(dir);
    expect(await read('_folio/edge/routes/0.json')).toBeNull();
    expect(await read('_folio/edge')).toBeNull();
    expect(await read('')).toBeNull();
    expect(await read('../secret.txt')).toBeNull();
    expect(await read('_folio/../../secret.txt')).toBeNull();
  });
});
