import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted model for one test suite, on 127.0.0.1 only. Each agent run's prompt names the run and
 * the shell command the model asks for — `RUN#<id><<command>>` — so that runs of one suite can go
 * concurrently against the one server: the first request of a run gets the tool call, the request that
 * carries the tool's result gets a closing text.
 */
export interface MockModel {
  /** The server's base URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The raw request bodies of run `id`, in arrival order. */
  requests(id: string): readonly string[];
  close(): Promise<void>;
}

/** What a dialect of the mock answers: the SSE text for a request, or undefined for a 404. */
export type ModelReply = (request: {
  readonly url: string;
  readonly body: string;
  readonly command: string;
  readonly answered: boolean;
}) => string | undefined;

const RUN = /RUN#([a-z0-9-]+)<<(.*?)>>/;

/** Starts the mock; `hasToolResult` tells whether a request already carries the tool's result. */
export async function startMockModel(reply: ModelReply, hasToolResult: (body: string) => boolean): Promise<MockModel> {
  const byRun = new Map<string, string[]>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const run = RUN.exec(body);
      if (run === null) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const [, id, escaped] = run;
      byRun.set(id!, [...(byRun.get(id!) ?? []), body]);
      // The prompt sits inside a JSON string: undo its escapes.
      const command = JSON.parse(`"${escaped!}"`) as string;
      const text = reply({ url: request.url ?? '', body, command, answered: hasToolResult(body) });
      if (text === undefined) response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      else response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: (id) => byRun.get(id) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
