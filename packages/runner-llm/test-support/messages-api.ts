// A local stand-in for the Anthropic Messages API on 127.0.0.1: POST /v1/messages answers with
// scripted replies in the API's JSON shapes, and every request is recorded, with whether the client
// went away before it was answered. The real @anthropic-ai/sdk talks to it through `baseURL`.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';

/** One request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body; tests read into it freely. */
  readonly body: any;
  /** True once the client closed the connection before an answer was sent. */
  aborted: boolean;
}

/** How the server answers one request. */
export type Reply =
  | {
      readonly kind: 'json';
      readonly status?: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'raw'; readonly status?: number; readonly text: string; readonly contentType?: string }
  | { readonly kind: 'hang' };

/** Picks the reply to a request. */
export type Responder = (request: RecordedRequest) => Reply | Promise<Reply>;

/** A running stand-in server. */
export interface MessagesApi {
  /** The base URL to give the SDK (`baseURL`). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  respond(responder: Responder): void;
  /** Resolves when some request has been aborted by the client. */
  nextAbort(): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startMessagesApi(
  responder: Responder = () => apiError(500, 'api_error', 'no responder set'),
): Promise<MessagesApi> {
  let current = responder;
  const requests: RecordedRequest[] = [];
  const abortWaiters: Array<(request: RecordedRequest) => void> = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body,
        aborted: false,
      };
      requests.push(recorded);
      response.on('close', () => {
        if (response.writableFinished) return;
        recorded.aborted = true;
        for (const waiter of abortWaiters.splice(0)) waiter(recorded);
      });
      if (recorded.method !== 'POST' || !recorded.path.startsWith('/v1/messages')) {
        send(response, apiError(404, 'not_found_error', `no route ${recorded.method} ${recorded.path}`));
        return;
      }
      Promise.resolve(current(recorded)).then(
        (reply) => send(response, reply),
        (error: unknown) => send(response, apiError(500, 'api_error', `responder threw: ${String(error)}`)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond(next) {
      current = next;
    },
    nextAbort: () => new Promise((resolve) => abortWaiters.push(resolve)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(response: ServerResponse, reply: Reply): void {
  if (reply.kind === 'hang') return;
  if (reply.kind === 'raw') {
    response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' });
    response.end(reply.text);
    return;
  }
  response.writeHead(reply.status ?? 200, {
    'content-type': 'application/json',
    'request-id': 'req_local_test',
    ...reply.headers,
  });
  response.end(JSON.stringify(reply.body));
}

let nextId = 0;

/** A `text` content block. */
export function text(value: string): { type: 'text'; text: string; citations: null } {
  return { type: 'text', text: value, citations: null };
}

/** A `tool_use` content block with a fresh id. */
export function toolUse(
  name: string,
  input: unknown,
  id = `toolu_local_${++nextId}`,
): { type: 'tool_use'; id: string; name: string; input: unknown } {
  return { type: 'tool_use', id, name, input };
}

/** A complete Messages API reply (200) with the given content blocks. */
export function message(
  content: unknown[],
  options: { stopReason?: string; inputTokens?: number; outputTokens?: number; model?: string } = {},
): Reply {
  const usesTools = content.some((block) => (block as { type?: unknown }).type === 'tool_use');
  return {
    kind: 'json',
    body: {
      id: `msg_local_${++nextId}`,
      type: 'message',
      role: 'assistant',
      model: options.model ?? 'claude-haiku-5-5',
      content,
      stop_reason: options.stopReason ?? (usesTools ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: { input_tokens: options.inputTokens ?? 100, output_tokens: options.outputTokens ?? 20 },
    },
  };
}

/** A prompt hook's answer: a `hook_decision` tool call. */
export function decision(ok: boolean, reason?: string): Reply {
  return message([toolUse('hook_decision', reason === undefined ? { ok } : { ok, reason })]);
}

/** An agent's final answer: text only. */
export function finalText(value: string): Reply {
  return message([text(value)]);
}

/** An error answer in the API's shape. */
export function apiError(
  status: number,
  type: string,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): Reply {
  return { kind: 'json', status, body: { type: 'error', error: { type, message: text } }, headers };
}

/** Answers requests in order from a script; requests beyond it get a 500 naming the problem. */
export function scripted(...replies: Reply[]): Responder {
  let index = 0;
  return () => replies[index++] ?? apiError(500, 'api_error', `the test script has no reply #${index}`);
}

/** The real SDK client, pointed at the server, as a host would configure one. */
export function clientFor(api: MessagesApi, options: { apiKey?: string } = {}): Anthropic {
  return new Anthropic({
    apiKey: options.apiKey ?? 'sk-ant-local-test-key-0123456789',
    baseURL: api.url,
    maxRetries: 0,
  });
}

/** The user turn's text of a request (the hook prompt and the context). */
export function firstUserText(request: RecordedRequest): string {
  const content = request.body?.messages?.[0]?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** The tool results a request carries back (its last user turn), in order. */
export function toolResults(
  request: RecordedRequest | undefined,
): Array<{ tool_use_id: string; content: string; is_error?: boolean }> {
  const messages = request?.body?.messages ?? [];
  const last = messages[messages.length - 1];
  return Array.isArray(last?.content)
    ? last.content.filter((block: { type?: string }) => block.type === 'tool_result')
    : [];
}
