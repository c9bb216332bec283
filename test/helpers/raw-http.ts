// One HTTP request sent byte for byte (the target not normalised, the body
// as given), and its answer: how the request fuzzers reach `folio serve`,
// `wrangler pages dev` or a deployment.
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** The request target exactly as sent: not normalised, not re-encoded. */
  target: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request over a keep-alive agent, the target sent byte for byte. */
export function rawRequest(base: string, req: RawRequest, agent?: Agent, timeoutMs = 10_000): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body) headers['content-length'] = String(req.body.byteLength);
    const r = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.target,
        headers,
        agent,
        timeout: timeoutMs,
        insecureHTTPParser: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(req.body ?? undefined);
  });
}
