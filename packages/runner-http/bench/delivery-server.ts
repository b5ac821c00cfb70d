// The delivery benchmark's server, in its own process: /healthy answers 204 at once, /dead never
// answers (its requests hang until the client gives up). It notes when each healthy request arrived
// (ms, on the clock both processes share) by the run_id in its body, and hands them over on "times".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const arrivals: Array<[string, number]> = [];
let requests = 0;
const server = createServer((request, response) => {
  requests++;
  if (request.url === '/dead') {
    request.resume();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    if (request.url === '/healthy-timed')
      arrivals.push([(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { run_id: string }).run_id, at]);
    response.writeHead(204);
    response.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message === 'times') process.send?.({ arrivals: arrivals.splice(0), requests });
  if (message === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
