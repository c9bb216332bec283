// The large files a build reads whole and decodes at once (the record cache,
// the build state, the history, the manifest it hashes), read into one buffer
// that the thread reuses. On a VM, memory a process touches for the first
// time is dear: 16 µs a page on the bench machine, about 4 ms a MiB. A fresh
// buffer per file made a one-post edit at 10,000 posts touch 85 MB it had no
// need to keep.
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
    const size = fstatSync(fd).size;
    const buffer = size <= scratch.byteLength ? scratch : Buffer.allocUnsafeSlow(size);
    if (buffer !== scratch && size <= KEEP_BYTES) scratch = buffer;
    let length = 0;
    while (length < size) {
      const read = readSync(fd, buffer, length, size - length, length);
      if (read === 0) break;
      length += read;
    }
    return use(buffer.subarray(0, length));
  } finally {
    closeSync(fd);
  }
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
  return withWholeFile(path, (bytes) => {
    const deserializer = new OwningDeserializer(bytes);
    deserializer.readHeader();
    return deserializer.readValue();
  });
}
