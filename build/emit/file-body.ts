// The bytes of a file to write: what the sinks and writers take.

/** Text, one buffer, or parts written one after another (a document spliced from the previous file). */
export type FileBody = Uint8Array | string | readonly Uint8Array[];

export function bodyLength(body: FileBody): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof Uint8Array) return body.byteLength;
  return body.reduce((sum, part) => sum + part.byteLength, 0);
}
