import type { IncomingMessage, ServerResponse } from 'node:http';
import { messageOf } from '@hookline/core';
import type { InFlightRequests } from './in-flight-requests.ts';
import type { JsonLog } from './json-log.ts';
import type { ResidentEngine } from './resident-engine.ts';
import { parsePath } from './routes.ts';
import type { HookAnswer, ServeBackend, ServeRoute } from './serve-backend.ts';
import { carriesToken } from './serve-token.ts';
import { SHIM_HEADER, shimFrame } from './shim-frame.ts';

/** What one listener's requests are answered with. */
export interface RequestHandlerOptions {
  readonly engine: ResidentEngine;
  readonly backend: ServeBackend;
  /** The token this listener requires (TCP); undefined for the Unix socket, which only the user can open. */
  readonly token: string | undefined;
  readonly maxBodyBytes: number;
  readonly inFlight: InFlightRequests;
  readonly log: JsonLog;
  /** The daemon's state for `GET /status`. */
  status(): Promise<unknown>;
  /** True once the daemon is stopping: answers still come, but connections are not kept open. */
  draining(): boolean;
}

/**
 * The daemon's HTTP handler. A hook request is always answered with status 200 and the agent's own
 * answer, whatever goes wrong (a bad body, a failed load, a crash): agents read a non-2xx status as
 * "no opinion", so every failure is turned into the backend's fail-closed answer instead. Only a
 * missing token gets 401 — and then nothing runs.
 */
export function requestHandler(options: RequestHandlerOptions) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    options.inFlight.start();
    if (options.draining()) response.setHeader('connection', 'close');
    handle(request, response, options)
      .catch((error: unknown) => {
        options.log.error('request failed', { problem: messageOf(error), url: request.url });
        if (!response.headersSent) send(response, 500, 'application/json', JSON.stringify({ error: messageOf(error) }));
      })
      .finally(() => options.inFlight.end());
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, options: RequestHandlerOptions) {
  if (options.token !== undefined && !carriesToken(request.headers, options.token)) {
    request.resume();
    return send(response, 401, 'application/json', UNAUTHORIZED);
  }
  const parsed = parsePath(request.url ?? '/');
  if (parsed === undefined) {
    request.resume();
    return send(response, 404, 'application/json', JSON.stringify({ error: `no such path: ${request.url}` }));
  }
  if (parsed.kind === 'health') {
    request.resume();
    return send(response, 200, 'application/json', JSON.stringify({ ok: true, pid: process.pid }));
  }
  if (parsed.kind === 'status') {
    request.resume();
    return send(response, 200, 'application/json', JSON.stringify(await options.status()));
  }
  if (request.method !== 'POST') {
    request.resume();
    return send(response, 405, 'application/json', JSON.stringify({ error: 'hook requests are POSTs' }));
  }
  const answer = await answerHook(request, parsed.route, parsed.cwd, options);
  if (request.headers[SHIM_HEADER] === '1') {
    const frame = shimFrame(answer);
    for (const [name, value] of Object.entries(frame.headers)) response.setHeader(name, value);
    return send(response, 200, 'text/plain; charset=utf-8', frame.body);
  }
  response.setHeader('hookline-exit-code', String(answer.exitCode));
  return send(response, 200, 'application/json', answer.stdout);
}

/** The route's answer to the request's payload; any failure becomes the backend's refusal. */
async function answerHook(
  request: IncomingMessage,
  route: ServeRoute,
  cwd: string | undefined,
  options: RequestHandlerOptions,
): Promise<HookAnswer> {
  const body = await readBody(request, options.maxBodyBytes);
  if (body === undefined) {
    return options.backend.refuse(
      route,
      {},
      `Hookline got a payload larger than ${options.maxBodyBytes} bytes, so no hook ran.`,
    );
  }
  let payload: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return options.backend.refuse(route, {}, 'Hookline got a payload that is not a JSON object, so no hook ran.');
    }
    payload = parsed as Record<string, unknown>;
  } catch (error) {
    return options.backend.refuse(
      route,
      {},
      `Hookline could not read the payload (${messageOf(error)}), so no hook ran.`,
    );
  }
  const project = cwd ?? (typeof payload['cwd'] === 'string' ? payload['cwd'] : undefined);
  if (project === undefined || !project.startsWith('/')) {
    return options.backend.refuse(
      route,
      payload,
      'Hookline cannot tell which project this call is for: the payload has no absolute "cwd" (nor the URL a ?cwd=), so no hook ran.',
    );
  }
  try {
    return await options.engine.answer(project, route, payload);
  } catch (error) {
    options.log.error('hooks failed', { project, event: route.event, problem: messageOf(error) });
    return options.backend.refuse(route, payload, `Hookline failed while running the hooks: ${messageOf(error)}`);
  }
}

/** The body as text, or undefined when it is longer than `limit` bytes (events, not an async iterator: this is the hot path). */
function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.once('error', reject);
    request.once('end', () => {
      if (size > limit) resolve(undefined);
      else resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
  });
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

const UNAUTHORIZED = JSON.stringify({
  error:
    'missing or wrong token: send `Authorization: Bearer <token>` with the token in $XDG_STATE_HOME/hookline/serve-token (see `hookline serve status`)',
});
