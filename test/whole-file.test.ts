// The reader of the large files a build decodes at once (emit/whole-file.ts):
// one buffer reused between reads, so each read must see only its own file's
// bytes, and a value deserialized from it must own its memory.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deserializeFile, withWholeFile } from '../build/emit/whole-file.js';

let dir: string;
const bytes = (length: number, seed: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 7919 + seed) % 251));
const large = bytes(3 * 1024 * 1024, 1);
const small = bytes(1000, 2);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-whole-file-'));
  await writeFile(join(dir, 'large.bin'), large);
  await writeFile(join(dir, 'small.bin'), small);
  await writeFile(join(dir, 'empty.bin'), '');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('withWholeFile', () => {
  it('gives each file its own bytes exactly, a smaller one after a larger one too', () => {
    const copy = (b: Buffer) => Buffer.from(b);
    expect(withWholeFile(join(dir, 'large.bin'), copy).equals(large)).toBe(true);
    expect(withWholeFile(join(dir, 'small.bin'), copy).equals(small)).toBe(true);
    expect(withWholeFile(join(dir, 'empty.bin'), copy).byteLength).toBe(0);
    expect(withWholeFile(join(dir, 'large.bin'), copy).equals(large)).toBe(true);
  });

  it('throws for a missing file as readFileSync does', () => {
    expect(() => withWholeFile(join(dir, 'missing.bin'), (b) => b)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => withWholeFile(dir, (b) => b)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });
});

describe('deserializeFile', () => {
  it('reads what v8.serialize wrote, and its typed arrays stay whole after the buffer is reused', async () => {
    const value = {
      routes: new Map([['/a', { file: 'a.html', size: 3 }]]),
      text: 'é'.repeat(2000),
      bytes: Buffer.from('a buffer of its own'),
      floats: new Float64Array([1.5, -2, 3e10]),
      view: new DataView(new Uint8Array([1, 2, 3, 4]).buffer),
    };
    await writeFile(join(dir, 'value.bin'), serialize(value));
    const read = deserializeFile(join(dir, 'value.bin')) as typeof value;
    // The next reads overwrite the reused buffer.
    withWholeFile(join(dir, 'large.bin'), () => null);
    withWholeFile(join(dir, 'small.bin'), () => null);
    expect(read.routes).toEqual(value.routes);
    expect(read.text).toBe(value.text);
    expect(Buffer.from(read.bytes).toString()).toBe('a buffer of its own');
    expect([...read.floats]).toEqual([1.5, -2, 3e10]);
    expect(read.view.getUint32(0)).toBe(value.view.getUint32(0));
  });
});
