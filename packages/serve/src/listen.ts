import { chmodSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect } from 'node:net';
import { ensurePrivateDir } from './private-files.ts';
import { ServeError } from './serve-error.ts';

/** Listens on 127.0.0.1 (`port` 0: one the system picks); a taken port is an error naming `--port`. */
export async function listenTcp(handler: RequestListener, port: number): Promise<Server> {
  const server = serverFor(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ServeError(
              'HOOKLINE_SERVE_PORT_TAKEN',
              `port ${port} on 127.0.0.1 is taken; choose another with --port, or 0 for any.`,
            )
          : error,
      ),
    );
    server.listen({ host: '127.0.0.1', port }, resolve);
  });
  return server;
}

/**
 * Listens on the Unix socket `path` (its folder made 0700, the socket itself 0600). A socket file
 * left by a dead daemon is replaced; one a live daemon answers on is an error.
 */
export async function listenSocket(handler: RequestListener, path: string, dir: string): Promise<Server> {
  ensurePrivateDir(dir);
  if (await socketAnswers(path)) {
    throw new ServeError(
      'HOOKLINE_SERVE_ALREADY_RUNNING',
      `a daemon already listens on ${path}; see \`hookline serve status\`, or stop it with \`hookline serve stop\`.`,
    );
  }
  rmSync(path, { force: true });
  const server = serverFor(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path }, resolve);
  });
  chmodSync(path, 0o600);
  return server;
}

function serverFor(handler: RequestListener): Server {
  // Agents keep no connection open across hooks, but http-hook clients and benchmarks may: keep idle
  // connections a while, and never let a slow client hold a request forever.
  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 120_000 }, handler);
  server.unref();
  return server;
}

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Stops accepting connections; the requests already read keep being answered. */
export function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
