import type { Dispatcher } from 'undici';
import { HooklineError } from '@hookline/core/plugin';

/** The start of a response body. */
export interface CappedBody {
  readonly bytes: Buffer;
  /** The body went on past the cap; the rest was not read and the connection was dropped. */
  readonly truncated: boolean;
}

/** One POST, as the runner sends it. */
export interface OutgoingRequest {
  readonly origin: string;
  /** Path and query. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Ends every wait (queue, connect, headers, body) and the exchange itself. */
  readonly signal: AbortSignal;
  readonly maxResponseBytes: number;
  /** undici's own inactivity limits, in ms; the signal is what normally ends a slow exchange. */
  readonly idleTimeoutMs: number;
}

/** The answer, with at most `maxResponseBytes` of its body. */
export interface HttpExchange {
  readonly statusCode: number;
  readonly statusText: string;
  readonly location?: string;
  /** The `Retry-After` header, when the answer has one. */
  readonly retryAfter?: string;
  readonly body: CappedBody;
}

/**
 * Sends one request through undici's dispatcher interface and collects the answer. The handler
 * keeps the body as chunks up to the cap and aborts the exchange past it (so memory stays bounded
 * and the socket is dropped); no stream object is built per response. The signal is listened to only
 * while the exchange runs, so aborting it afterwards costs nothing here.
 */
export function sendRequest(dispatcher: Dispatcher, request: OutgoingRequest): Promise<HttpExchange> {
  const { signal } = request;
  return new Promise<HttpExchange>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const exchange = new Exchange(signal, request.maxResponseBytes, resolve, reject);
    signal.addEventListener('abort', exchange.onAbort, { once: true });
    try {
      dispatcher.dispatch(
        {
          origin: request.origin,
          path: request.path,
          method: 'POST',
          headers: request.headers,
          body: request.body,
          headersTimeout: request.idleTimeoutMs,
          bodyTimeout: request.idleTimeoutMs,
        },
        exchange,
      );
    } catch (error) {
      exchange.fail(error);
    }
  });
}

/**
 * One exchange in flight, as undici's handler: one object rather than a closure per callback — one
 * is made for every delivery.
 */
class Exchange implements Dispatcher.DispatchHandler {
  readonly #signal: AbortSignal;
  readonly #maxResponseBytes: number;
  readonly #resolve: (answer: HttpExchange) => void;
  readonly #reject: (error: unknown) => void;
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;
  #statusCode = 0;
  #statusText = '';
  #location: string | undefined;
  #retryAfter: string | undefined;
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #truncated = false;

  constructor(
    signal: AbortSignal,
    maxResponseBytes: number,
    resolve: (answer: HttpExchange) => void,
    reject: (error: unknown) => void,
  ) {
    this.#signal = signal;
    this.#maxResponseBytes = maxResponseBytes;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** The signal's listener. A request still queued for a connection is dropped when it would start (onRequestStart). */
  readonly onAbort = (): void => {
    this.#controller?.abort(asError(this.#signal.reason));
    if (this.#settle()) this.#reject(this.#signal.reason);
  };

  fail(error: unknown): void {
    if (this.#settle()) this.#reject(error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#settled)
      controller.abort(
        asError(this.#signal.reason ?? new HooklineError('HOOKLINE_HOOK_STOPPED', 'the request was abandoned')),
      );
    else this.#controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    code: number,
    headers: Record<string, string | string[] | undefined>,
    message?: string,
  ): void {
    // 1xx (100 Continue, 103 Early Hints) precede the real answer.
    if (code < 200) return;
    this.#statusCode = code;
    this.#statusText = message ?? '';
    const found = headers['location'];
    if (found !== undefined) this.#location = Array.isArray(found) ? found.join(', ') : String(found);
    const retryAfter = headers['retry-after'];
    if (retryAfter !== undefined) this.#retryAfter = Array.isArray(retryAfter) ? retryAfter[0] : String(retryAfter);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#truncated) return;
    if (this.#size + chunk.length > this.#maxResponseBytes) {
      this.#chunks.push(chunk.subarray(0, this.#maxResponseBytes - this.#size));
      this.#size = this.#maxResponseBytes;
      this.#truncated = true;
      if (this.#settle()) this.#resolve(this.#answer());
      controller.abort(
        new HooklineError('HOOKLINE_HTTP_RESPONSE_TOO_LARGE', `response body exceeds ${this.#maxResponseBytes} bytes`),
      );
      return;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
  }

  onResponseEnd(): void {
    if (this.#settle()) this.#resolve(this.#answer());
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.#settle()) this.#reject(error);
  }

  // True the first time only: whatever ends the exchange first decides its answer.
  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#signal.removeEventListener('abort', this.onAbort);
    return true;
  }

  #answer(): HttpExchange {
    const chunks = this.#chunks;
    const body = {
      bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size),
      truncated: this.#truncated,
    };
    return {
      statusCode: this.#statusCode,
      statusText: this.#statusText,
      ...(this.#location === undefined ? {} : { location: this.#location }),
      ...(this.#retryAfter === undefined ? {} : { retryAfter: this.#retryAfter }),
      body,
    };
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new HooklineError('HOOKLINE_HOOK_STOPPED', String(reason));
}
