// A target's answer as a file of the output (D38): which responses the
// build can write as files, and the file each one goes to.
import { fileFor } from '../core/files.js';
import { request, type Headers, type Sections } from '../core/http.js';
import { respond } from '../core/respond.js';
import type { Runtime } from '../core/runtime.js';

/** A target's answer as a file of the output: where it goes, its headers (without the ETag), its ETag and bytes. */
export interface FileAnswer {
  file: string;
  headers: Headers;
  etag: string;
  body: Uint8Array;
  sections?: Sections;
}

/**
 * What the build writes for `target`: its GET answer and the file that holds
 * it. Null unless the answer is a 200 with a body: a CDN serves a file with
 * 200, so every other answer is left to the functions, which give the right
 * status.
 */
export async function fileAnswer(target: string, rt: Runtime): Promise<FileAnswer | null> {
  const reply = await respond(request('GET', target), rt);
  if (reply.status !== 200 || !reply.body) return null;
  const { etag, ...headers } = reply.headers;
  return { file: fileFor(target, headers['content-type'] ?? ''), headers, etag: etag!, body: reply.body, sections: reply.sections };
}
