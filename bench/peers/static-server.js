// The plain static server peer: serve-handler over a built dist/,
// with no manifest, no negotiation and no functions; the floor for serving
// the same files from Node.
//
//   node bench/peers/static-server.js <dir> [port]   prints "listening <url>"
import { createServer } from 'node:http';
import serveHandler from 'serve-handler';

const [dir, port = '0'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/peers/static-server.js <dir> [port]');
  process.exit(2);
}
const server = createServer((req, res) => serveHandler(req, res, { public: dir, cleanUrls: false, directoryListing: false }));
server.listen(Number(port), '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
