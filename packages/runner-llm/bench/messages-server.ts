// The benchmark's stand-in Messages API, in its own process so its work does not share the measuring
// process's event loop: every POST /v1/messages gets the same prompt-hook answer (a hook_decision
// tool call), as fast as Node can send it. Talks to its parent over IPC: {port} once listening,
// then 'stats' → {requests}, 'stop' → exit.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = JSON.stringify({
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'claude-haiku-5-5',
  content: [{ type: 'tool_use', id: 'toolu_bench', name: 'hook_decision', input: { ok: true } }],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 120, output_tokens: 12 },
});
let requests = 0;

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    requests++;
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(answer),
      'request-id': 'req_bench',
    });
    response.end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message === 'stats') process.send?.({ requests });
  if (message === 'stop') server.close(() => process.exit(0));
});
