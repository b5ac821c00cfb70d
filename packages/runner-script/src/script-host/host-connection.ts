import type { Socket } from 'node:net';
import { HooklineError, messageOf, type RunResult } from '@hookline/core/plugin';
import { parseMessage, readLines, send, SCRIPT_HOST_PROTOCOL, type ClientMessage } from './host-protocol.ts';

/** A run as the client sends it, without the id the connection gives it. */
export type RunMessage = Omit<Extract<ClientMessage, { t: 'run' }>, 't' | 'id'>;

/** A connection to a script host that answered `hello` with this build's key. */
export interface HostConnection {
  /** The host's process id, as it said in its `hello`. */
  readonly pid: number;
  /** False once the socket closed (the host exited or crashed); runs then go to a new connection. */
  isOpen(): boolean;
  /** Sends one run and resolves to its result; every way it can end is a result, never a throw. */
  run(message: RunMessage, signal: AbortSignal): Promise<RunResult>;
  /** Calls `listener` once when the host goes away on its own (not after `close`). */
  onLost(listener: () => void): void;
  close(): void;
}

/** Why no connection was made: nothing listens there, or something that is not this build's host does. */
export type ConnectFailure =
  { readonly kind: 'absent'; readonly reason: string } | { readonly kind: 'foreign'; readonly reason: string };

// Built-in modules through process.getBuiltinModule, not `import`: this runs on the CLI's `emit` path,
// and Node's ES module wrapper of a built-in reads all of its exports (loading more of Node) on import.
const { connect } = process.getBuiltinModule('node:net');

/** How long a host may take to answer `hello` before the client treats it as broken. */
const HELLO_TIMEOUT_MS = 5_000;

/**
 * Connects to `socketPath` and says `hello` with `key`. A host of another build (or anything else
 * listening there) is refused: the client never sends a hook's context to it.
 */
export function connectHost(socketPath: string, key: string): Promise<HostConnection | ConnectFailure> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let greeted: ReturnType<typeof hostConnection> | undefined;
    const fail = (failure: ConnectFailure): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(failure);
    };
    const timer = setTimeout(
      () => fail({ kind: 'foreign', reason: `nothing answered hello on ${socketPath} within ${HELLO_TIMEOUT_MS} ms` }),
      HELLO_TIMEOUT_MS,
    );
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // Before the greeting: nothing serves there. ENOENT: no file; ECONNREFUSED: a file no process listens on.
      if (greeted === undefined) fail({ kind: 'absent', reason: `${error.code ?? error.message} on ${socketPath}` });
    });
    socket.once('close', () => {
      if (greeted === undefined) fail({ kind: 'absent', reason: `${socketPath} closed before the host answered` });
    });
    socket.once('connect', () => send(socket, { t: 'hello', protocol: SCRIPT_HOST_PROTOCOL, key }));
    const onFirst = (line: string): void => {
      const parsed = parseMessage(line);
      if ('problem' in parsed || parsed.message.t !== 'hello') {
        fail({
          kind: 'foreign',
          reason: `${socketPath} answered hello with ${'problem' in parsed ? `a malformed message (${parsed.problem})` : `a \`${parsed.message.t}\` message`}`,
        });
        return;
      }
      const { message } = parsed;
      if (
        message['key'] !== key ||
        message['protocol'] !== SCRIPT_HOST_PROTOCOL ||
        typeof message['pid'] !== 'number'
      ) {
        fail({
          kind: 'foreign',
          reason: `the host on ${socketPath} serves another build (${JSON.stringify(message['key'])}, protocol ${JSON.stringify(message['protocol'])})`,
        });
        return;
      }
      clearTimeout(timer);
      greeted = hostConnection(socket, message['pid']);
      resolve(greeted);
    };
    readLines(
      socket,
      (line) => (greeted === undefined ? onFirst(line) : greeted.receive(line)),
      () =>
        greeted === undefined
          ? fail({ kind: 'foreign', reason: `${socketPath} sent a line longer than the limit` })
          : socket.destroy(new HooklineError('HOOKLINE_SCRIPT_HOST_PROTOCOL', 'it sent a line longer than the limit')),
    );
  });
}

interface Pending {
  resolve(result: RunResult): void;
}

function hostConnection(socket: Socket, pid: number): HostConnection & { receive(line: string): void } {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let open = true;
  let closedHere = false;
  let endReason = 'its socket closed';
  const lostListeners: Array<() => void> = [];
  // Only a hook in flight keeps this process alive: an idle connection must not hold up an exit.
  socket.unref();
  const settle = (id: number, result: RunResult): void => {
    const entry = pending.get(id);
    if (entry === undefined) return;
    pending.delete(id);
    if (pending.size === 0) socket.unref();
    entry.resolve(result);
  };
  socket.on('error', (error) => {
    endReason = error.message;
  });
  socket.on('close', () => {
    open = false;
    // The host crashed, was killed, or broke the protocol while these hooks ran: each fails, visibly,
    // and its on_error decides. Never retried: the host may have died of this very script.
    for (const id of [...pending.keys()]) {
      settle(id, {
        status: 'failed',
        error: `the script host (pid ${pid}) ended while this hook ran (${endReason}); the hook did not finish. Run it again; if this repeats, set HOOKLINE_SCRIPT_HOST=off to run script hooks in the hookline process itself`,
      });
    }
    if (!closedHere) for (const listener of lostListeners) listener();
  });
  return {
    pid,
    isOpen: () => open,
    receive(line) {
      const parsed = parseMessage(line);
      if ('problem' in parsed) {
        endReason = `it sent a malformed message: ${parsed.problem}`;
        socket.destroy();
        return;
      }
      const { message } = parsed;
      const id = message['id'];
      if (message.t === 'result' && typeof id === 'number' && isRunResult(message['result'])) {
        settle(id, message['result']);
      } else if (message.t === 'error' && typeof message['message'] === 'string') {
        if (typeof id === 'number')
          settle(id, { status: 'failed', error: `the script host refused the hook: ${message['message']}` });
        else endReason = `it said: ${message['message']}`;
      } else {
        endReason = `it sent a malformed message: ${JSON.stringify(line.slice(0, 200))}`;
        socket.destroy();
      }
    },
    run(message, signal) {
      if (!open)
        return Promise.resolve({
          status: 'failed',
          error: `the script host (pid ${pid}) had ended (${endReason}) before this hook could start`,
        });
      const id = nextId++;
      return new Promise<RunResult>((resolve) => {
        const onAbort = (): void => {
          if (pending.has(id) && open) send(socket, { t: 'abort', id, reason: messageOf(signal.reason) });
        };
        pending.set(id, {
          resolve(result) {
            signal.removeEventListener('abort', onAbort);
            resolve(result);
          },
        });
        socket.ref();
        send(socket, { t: 'run', id, ...message });
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    onLost(listener) {
      lostListeners.push(listener);
    },
    close() {
      open = false;
      closedHere = true;
      socket.end();
    },
  };
}

function isRunResult(value: unknown): value is RunResult {
  if (typeof value !== 'object' || value === null) return false;
  const { status, error, decision } = value as Record<string, unknown>;
  if (status === 'failed') return typeof error === 'string';
  return status === 'ok' && typeof decision === 'object' && decision !== null;
}
