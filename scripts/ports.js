// A free TCP port on 127.0.0.1, for the servers the scripts and the tests start.
import { createServer } from 'node:net';

// Below Linux's ephemeral range (32768–60999), which the kernel hands to
// every bind to port 0 and every outgoing connection: a port picked there
// can be taken by another process's listener between the probe and the bind.
const LOW = 20_000;
const HIGH = 32_767;

/** A port nobody listens on right now, on 127.0.0.1, outside the ephemeral range. */
export async function freePort() {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (await listens(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 between ${LOW} and ${HIGH} after 50 tries`);
}

function listens(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
