// The large files a build reads whole and decodes at once (the record cache,
// the build state, the history, the manifest it hashes), read into one buffer
// that the thread reuses. On a VM, memory a process touches for the first
// time is dear: 16 µs a page on the bench machine, about 4 ms a MiB. A fresh
// buffer per file would have a one-post edit at 10,000 posts touch 85 MB it
// has no need to keep.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { DefaultDeserializer } from 'node:v8';

/** The largest buffer a thread keeps between reads (a larger file gets one of its own). */
const KEEP_BYTES = 32 * 2 ** 20;

let scratch = Buffer.allocUnsafeSlow(0);

/**
 * `use` called with the bytes of the file at `path`, which it may read only
 * while it runs: the next read reuses them. It must not keep them or a view of
 * them, nor await before it has read them. Throws as `readFileSync` does.
 */
export function withWholeFile<T>(path: string, use: (bytes: Buffer) => T): T {
  const fd = openSync(path, 'r');
  try {
    return withBytesAt(fd, 0, fstatSync(fd).size, use);
  } finally {
    closeSync(fd);
  }
}

/** `use` called with `length` bytes of the open file `fd` from `position` (fewer where the file ends), on the terms of withWholeFile. */
export function withBytesAt<T>(fd: number, position: number, length: number, use: (bytes: Buffer) => T): T {
  const buffer = length <= scratch.byteLength ? scratch : Buffer.allocUnsafeSlow(length);
  if (buffer !== scratch && length <= KEEP_BYTES) scratch = buffer;
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return use(buffer.subarray(0, done));
}

interface HostObjectReader {
  _readHostObject(this: DefaultDeserializer): ArrayBufferView;
}
const readHostObject = (DefaultDeserializer.prototype as unknown as HostObjectReader)._readHostObject;
/** Every typed array's own `slice`, which copies (a Buffer's `slice` is a view). */
const copyTypedArray = (Object.getPrototypeOf(Uint8Array.prototype) as { slice(this: ArrayBufferView): ArrayBufferView }).slice;

/**
 * Node's deserializer makes each typed array a view of the bytes it reads;
 * this one copies them, so that a value read from the reused buffer owns all
 * of its memory.
 */
class OwningDeserializer extends DefaultDeserializer {
  _readHostObject(): ArrayBufferView {
    const view = readHostObject.call(this);
    const { buffer, byteOffset, byteLength } = view;
    return view instanceof DataView ? new DataView(buffer.slice(byteOffset, byteOffset + byteLength)) : copyTypedArray.call(view);
  }
}

/** `v8.deserialize` of the file at `path`. */
export function deserializeFile(path: string): unknown {
  return withWholeFile(path, deserializeOwning);
}

/** `v8.deserialize` of `bytes`, into values that keep no view of them. */
export function deserializeOwning(bytes: Buffer): unknown {
  const deserializer = new OwningDeserializer(bytes);
  deserializer.readHeader();
  return deserializer.readValue();
}
