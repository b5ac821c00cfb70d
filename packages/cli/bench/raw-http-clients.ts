// A light load generator for the serve benchmark: `clients` keep-alive connections, each sending one
// prepared POST at a time over a bare socket and reading the answer's status line, headers and body
// itself. Node's http client costs the generator about as much CPU per call as the daemon spends
// answering it, and both share the machine's two cores; this one costs a fraction, so the row it
// gives measures mostly the daemon. Every answer is still checked (status 200, exit code 0, the
// whole body read).
import { connect, type Socket } from 'node:net';

/** What the clients measured: each call's time in ms, calls that failed, and the wall time in s. */
export interface RawLoad {
  readonly times: number[];
  readonly errors: number;
  readonly seconds: number;
}

const HEAD_END = '\r\n\r\n';

/** Sends `calls` POSTs of `body` to `path` over `clients` connections to 127.0.0.1:`port`. */
export async function rawHttpLoad(options: {
  readonly port: number;
  readonly token: string;
  readonly path: string;
  readonly body: string;
  readonly calls: number;
  readonly clients: number;
}): Promise<RawLoad> {
  const request = Buffer.from(
    `POST ${options.path} HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\nAuthorization: Bearer ${options.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(options.body)}\r\n\r\n${options.body}`,
  );
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const client = async (): Promise<void> => {
    const socket = await open(options.port);
    try {
      while (next < options.calls) {
        // A connection the daemon closed ends this client; its calls go to the others.
        if (socket.destroyed) return;
        next += 1;
        const sent = performance.now();
        if (await exchange(socket, request)) times.push(performance.now() - sent);
        else errors += 1;
      }
    } finally {
      socket.destroy();
    }
  };
  await Promise.all(Array.from({ length: options.clients }, client));
  return { times, errors, seconds: (performance.now() - started) / 1000 };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes one request and reads its whole answer; true when it was a 200 with exit code 0. */
function exchange(socket: Socket, request: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    let text = '';
    let needed = -1;
    let ok = false;
    const done = (result: boolean): void => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      if (needed < 0) {
        const end = text.indexOf(HEAD_END);
        if (end < 0) return;
        const head = text.slice(0, end).toLowerCase();
        ok = head.startsWith('http/1.1 200 ') && head.includes('\r\nhookline-exit-code: 0\r\n');
        const length = /\r\ncontent-length: (\d+)/.exec(head);
        if (length === null) return done(false);
        needed = end + HEAD_END.length + Number(length[1]);
      }
      if (text.length >= needed) done(ok && text.length === needed);
    };
    const onError = (): void => done(false);
    const onClose = (): void => done(false);
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.write(request);
  });
}
