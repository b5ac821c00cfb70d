import { request } from 'node:http';
import { ServeError } from './serve-error.ts';

/** One request to the daemon over its Unix socket; resolves to the status and body. */
export function requestOverSocket(
  socketPath: string,
  method: 'GET' | 'POST',
  path: string,
  options: {
    readonly body?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly timeoutMs?: number;
  } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        socketPath,
        method,
        path,
        headers: { ...options.headers, connection: 'close' },
        timeout: options.timeoutMs ?? 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(
        new ServeError(
          'HOOKLINE_SERVE_NO_ANSWER',
          `the daemon at ${socketPath} did not answer ${path} in time; see its log.`,
        ),
      ),
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
