import { messageOf } from '@hookline/core/plugin';

/** Docker's HTTP status of a failed call, when the error came from the engine. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** The engine's own message (`json.message`) rather than dockerode's "(HTTP code 400) unexpected - …" wrapper. */
export function engineMessage(error: unknown): string {
  const json = (error as { json?: { message?: unknown } } | undefined)?.json;
  if (typeof json?.message === 'string') return json.message;
  return messageOf(error);
}

/** Whether a failed call never reached the engine (it stopped, or its socket went away). */
export function isConnectionFailure(error: unknown): boolean {
  if (statusOf(error) !== undefined) return false;
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ENOENT' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** Docker answers 404 for a container that is gone and 409 for one that is not running. */
export function isContainerGone(error: unknown): boolean {
  const status = statusOf(error);
  return status === 404 || status === 409;
}
