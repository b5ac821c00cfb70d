import type { Dispatcher } from 'undici';

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
  readonly body: CappedBody;
}

/**
 * Sends one request through undici's dispatcher interface and collects the answer. The handler
 * keeps the body as chunks up to the cap and aborts the exchange past it (so memory stays bounded
 * and the socket is dropped); no stream object is built per response. The signal is listened to only
 * while the exchange runs, so aborting it afterwards costs nothing here.
 */
export function sendRequest(dispatcher: Dispatcher, request: OutgoingRequest): Promise<HttpExchange> {
  const { signal, maxResponseBytes } = request;
  return new Promise<HttpExchange>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let statusCode = 0;
    let statusText = '';
    let location: string | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;

    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      finish();
    };
    const answer = (): HttpExchange => ({
      statusCode,
      statusText,
      ...(location === undefined ? {} : { location }),
      body: { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), truncated },
    });
    const onAbort = (): void => {
      // A request still queued for a connection is dropped when it would start (onRequestStart).
      controller?.abort(asError(signal.reason));
      settle(() => reject(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        if (settled) started.abort(asError(signal.reason ?? new Error('the request was abandoned')));
        else controller = started;
      },
      onResponseStart(_controller, code, headers, message) {
        // 1xx (100 Continue, 103 Early Hints) precede the real answer.
        if (code < 200) return;
        statusCode = code;
        statusText = message ?? '';
        const found = headers['location'];
        if (found !== undefined) location = Array.isArray(found) ? found.join(', ') : String(found);
      },
      onResponseData(current, chunk) {
        if (truncated) return;
        if (size + chunk.length > maxResponseBytes) {
          chunks.push(chunk.subarray(0, maxResponseBytes - size));
          size = maxResponseBytes;
          truncated = true;
          settle(() => resolve(answer()));
          current.abort(new Error(`response body exceeds ${maxResponseBytes} bytes`));
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      },
      onResponseEnd() {
        settle(() => resolve(answer()));
      },
      onResponseError(_controller, error) {
        settle(() => reject(error));
      },
    };

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
        handler,
      );
    } catch (error) {
      settle(() => reject(error));
    }
  });
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
