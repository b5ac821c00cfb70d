import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request of the Messages API the mock received. */
export interface ModelRequest {
  readonly body: {
    readonly messages?: ReadonlyArray<{ readonly role: string; readonly content: unknown }>;
    readonly tools?: ReadonlyArray<{ readonly name: string }>;
  };
}

/** What a scenario's first turn asks for: a call of the `Bash` tool with this command. */
export interface Scenario {
  readonly command: string;
}

/**
 * A Messages API on 127.0.0.1 for Claude Code: the first turn of a scenario (named in the prompt by
 * its key) is a `Bash` tool call streamed as server-sent events; once a request carries the
 * tool_result, a text turn ends the conversation. Every request is kept, by scenario, for the tests
 * to read what reached the model.
 */
export interface MockAnthropic {
  readonly url: string;
  /** Registers a scenario; the prompt must contain the returned key. */
  scenario(scenario: Scenario): string;
  /** The requests of a scenario so far. */
  requests(key: string): readonly ModelRequest[];
  close(): Promise<void>;
}

export async function startMockAnthropic(): Promise<MockAnthropic> {
  const scenarios = new Map<string, Scenario>();
  const received = new Map<string, ModelRequest[]>();
  let next = 0;
  const server: Server = createServer((request, response) => {
    void handle(request, response, scenarios, received);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    scenario(scenario) {
      const key = `scenario-${++next}-${process.pid}`;
      scenarios.set(key, scenario);
      received.set(key, []);
      return key;
    },
    requests: (key) => received.get(key) ?? [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  scenarios: ReadonlyMap<string, Scenario>,
  received: Map<string, ModelRequest[]>,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (request.method !== 'POST' || !(request.url ?? '').startsWith('/v1/messages')) {
    response
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"type":"error","error":{"type":"not_found_error","message":"not mocked"}}');
    return;
  }
  let body: ModelRequest['body'] = {};
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ModelRequest['body'];
  } catch {
    // Answered as text below.
  }
  if ((request.url ?? '').startsWith('/v1/messages/count_tokens')) {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
    return;
  }
  const text = JSON.stringify(body.messages ?? []);
  const key = [...scenarios.keys()].find((candidate) => text.includes(candidate));
  const mainTurn = key !== undefined && (body.tools ?? []).some((tool) => tool.name === 'Bash');
  if (key !== undefined && mainTurn) received.get(key)!.push({ body });
  const scenario = key === undefined ? undefined : scenarios.get(key);
  const answered = text.includes('"tool_result"');
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events = mainTurn && scenario !== undefined && !answered ? toolUseTurn(scenario.command) : textTurn('Done.');
  for (const [name, data] of events) response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  response.end();
}

type SseEvent = readonly [string, Record<string, unknown>];

function start(): SseEvent {
  return [
    'message_start',
    {
      type: 'message_start',
      message: {
        id: `msg_${Math.random().toString(36).slice(2)}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-mock',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
  ];
}

function end(reason: string): SseEvent[] {
  return [
    [
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 1 } },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
}

function toolUseTurn(command: string): SseEvent[] {
  return [
    start(),
    [
      'content_block_start',
      {
        type: 'content_block_start',
        index: 0,
        content_block: {
          type: 'tool_use',
          id: `toolu_${Math.random().toString(36).slice(2)}`,
          name: 'Bash',
          input: {},
        },
      },
    ],
    [
      'content_block_delta',
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify({ command, description: 'scenario command' }) },
      },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ...end('tool_use'),
  ];
}

function textTurn(text: string): SseEvent[] {
  return [
    start(),
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ...end('end_turn'),
  ];
}
