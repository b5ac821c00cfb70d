import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A notification the test server received. */
export interface Received {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** A stand-in ntfy server on 127.0.0.1 that records what it receives. */
export interface NtfyServer {
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/**
 * Answers by topic: `fail` → 500, `slow` → no answer until the client gives up, anything else →
 * 200 with ntfy's JSON. Requests are recorded before answering.
 */
export async function startNtfyServer(): Promise<NtfyServer> {
  const received: Received[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    received.push({ path: request.url ?? '', body });
    if (body['topic'] === 'fail') {
      response.writeHead(500).end('{"error":"boom"}');
      return;
    }
    // `slow`: hold the request; the client's abort (or close()) ends it.
    if (body['topic'] === 'slow') return;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: String(received.length), event: 'message', topic: body['topic'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
