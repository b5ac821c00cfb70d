// Real servers on 127.0.0.1 for the runner's tests, each recording what reached it.
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import type { Certificate } from './certificate.ts';

/** One request as the server saw it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  /** The body's exact bytes. */
  readonly body: Buffer;
}

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:PORT` (or https). */
  readonly origin: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far: what connection reuse is judged by. */
  readonly accepted: () => number;
  /** Connections open right now, as the server counts them. */
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

/** Answers one request; the body has been read into `request.body`. */
export type Handler = (request: ReceivedRequest, response: ServerResponse) => void;

/** An HTTP server on 127.0.0.1 (or `host`) with a recording handler. */
export async function startHttpServer(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  return listen(createHttpServer(), handler, host, 'http');
}

/** An HTTPS server on 127.0.0.1 with the given certificate. */
export async function startHttpsServer(handler: Handler, certificate: Certificate): Promise<TestServer> {
  return listen(createHttpsServer({ key: certificate.key, cert: certificate.cert }), handler, '127.0.0.1', 'https');
}

async function listen(server: Server, handler: Handler, host: string, scheme: 'http' | 'https'): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  server.keepAliveTimeout = 30_000;
  server.on(scheme === 'https' ? 'secureConnection' : 'connection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A TLS handshake that fails still opened a TCP connection: track those sockets too, to close them.
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => undefined);
  server.on('request', (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(request);
      handler(request, response);
    });
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    origin: `${scheme}://${shown}:${port}`,
    port,
    requests,
    accepted: () => accepted,
    openConnections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP server that accepts connections and never writes a byte (nor reads one). */
export async function startSilentServer(): Promise<TestServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createTcpServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    // Read and drop what arrives: a socket that is never read never sees the client's end either.
    socket.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    accepted: () => accepted,
    openConnections: async () => sockets.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Answers with `status`, an optional body and headers. */
export function answer(
  status: number,
  body = '',
  headers: Record<string, string> = {},
): (response: ServerResponse) => void {
  return (response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
}
