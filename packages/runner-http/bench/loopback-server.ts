// The benchmark's server, in its own process so its work does not share the measured event loop:
// answers every request 200 with an empty body, keep-alive, and reports its port to the parent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let accepted = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-length': '0' });
    response.end();
  });
});
server.keepAliveTimeout = 60_000;
server.on('connection', () => accepted++);
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('message', (message) => {
  if (message === 'stats') process.send?.({ accepted });
  if (message === 'stop') server.close(() => process.exit(0));
});
