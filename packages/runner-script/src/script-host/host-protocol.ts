import type { OnErrorPolicy, RunResult, SourceLocation } from '@hookline/core/plugin';
import type { Socket } from 'node:net';

// The script host speaks newline-delimited JSON over its Unix socket: one message per line, each an
// object with a `t` (type). The client starts with `hello` and the host answers with its own, naming
// the build it serves; then `run` and `abort` go one way and `result` comes back, matched by `id`.

/** Bumped when a message changes; part of the build key too, so hosts of another protocol never meet a client. */
export const SCRIPT_HOST_PROTOCOL = 1;

/** Lines longer than this are refused: a context or script file is far smaller, a runaway peer is not. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** What of a hook the host needs to run it as the CLI would: the rest of `HookDefinition` does not reach the script runner. */
export interface RemoteHook {
  readonly name: string;
  readonly event: string;
  readonly timeoutMs: number;
  readonly onError: OnErrorPolicy;
  /** The hook's script keys as the CLI validated them. */
  readonly options: Readonly<Record<string, unknown>>;
  /** With an absolute `file`, so a `file` script resolves as it does in the CLI's working directory. */
  readonly source: SourceLocation & { readonly index: number };
}

export type ClientMessage =
  | { readonly t: 'hello'; readonly protocol: number; readonly key: string }
  | {
      readonly t: 'run';
      readonly id: number;
      readonly hook: RemoteHook;
      readonly preset: string;
      readonly contextJson: string;
      readonly timeoutMs: number;
    }
  | { readonly t: 'abort'; readonly id: number; readonly reason: string };

export type HostMessage =
  | { readonly t: 'hello'; readonly protocol: number; readonly key: string; readonly pid: number }
  | { readonly t: 'result'; readonly id: number; readonly result: RunResult }
  | { readonly t: 'error'; readonly message: string; readonly id?: number };

/** Sends one message. */
export function send(socket: Socket, message: ClientMessage | HostMessage): void {
  socket.write(`${JSON.stringify(message)}\n`);
}

/**
 * Calls `onLine` with each complete line `socket` receives, or `onOversized` once when a line grows
 * past {@link MAX_MESSAGE_BYTES} (the rest of the stream is ignored then: its framing is lost).
 */
export function readLines(socket: Socket, onLine: (line: string) => void, onOversized: () => void): void {
  let pending = '';
  let broken = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    if (broken) return;
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line !== '') onLine(line);
      newline = pending.indexOf('\n');
    }
    if (pending.length > MAX_MESSAGE_BYTES) {
      broken = true;
      pending = '';
      onOversized();
    }
  });
}

/** A parsed line that is an object with a string `t`, or why it is not. */
export function parseMessage(
  line: string,
): { readonly message: Record<string, unknown> & { t: string } } | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { problem: `not JSON (${(error as Error).message})` };
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    typeof (value as { t?: unknown }).t !== 'string'
  ) {
    return { problem: 'not an object with a string `t`' };
  }
  return { message: value as Record<string, unknown> & { t: string } };
}
