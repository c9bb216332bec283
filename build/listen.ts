// Binding folio serve's and folio dev's server to its port: a port that
// cannot be had fails with the fix, not Node's bare EADDRINUSE.
import type { Server } from 'node:http';

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((ok, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `port ${port} on ${host}`;
      if (error.code === 'EADDRINUSE')
        fail(new Error(`${where} is taken by another process. Pass --port with a free port, or --port 0 for any free one.`));
      else if (error.code === 'EACCES')
        fail(new Error(`${where} needs privileges this process lacks. Pass --port 1024 or above, or --port 0 for any free one.`));
      else fail(error);
    });
    server.listen(port, host, () => ok());
  });
}
