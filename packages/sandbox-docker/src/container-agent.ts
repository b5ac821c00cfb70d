import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { createFrameDemuxer } from './frame-demuxer.ts';
import { AGENT_SCRIPT } from './agent-script.ts';

/** An operation of the agent: write a file, remove one, kill (or count) an exec's processes, read counters, ping. */
export type AgentOperation = 'w' | 'r' | 'k' | 'c' | 'p';

/** The host side of a container's agent. */
export interface ContainerAgent {
  /** Sends a request; resolves to the text after `ok`, rejects with the agent's `err` message or when it is gone. */
  request(operation: AgentOperation, first?: string, second?: string, data?: string | Uint8Array): Promise<string>;
  /** Resolves when the agent's stream ends: the container stopped, or {@link close} was called. */
  readonly ended: Promise<void>;
  readonly isEnded: boolean;
  /** The agent's last stderr bytes (its complaints, if it died), for messages. */
  stderrTail(): string;
  /** Detaches; the container keeps running. */
  close(): void;
}

/** Thrown by {@link ContainerAgent.request} when the agent is gone (the container stopped) or detached. */
export class AgentGoneError extends Error {
  constructor() {
    super("the run's container stopped");
    this.name = 'AgentGoneError';
  }
}

/**
 * The agent answers in milliseconds; one that does not answer in this time was stopped (SIGSTOP) or
 * had its pipes tampered with by a hook of the run (hooks run as the same user). The request fails
 * instead of hanging the hook that made it.
 */
const ANSWER_TIMEOUT_MS = 10_000;
/**
 * On top of that, time for the data queued before the answer: the shell's `read` takes a pipe one
 * byte at a time, about 200 KB/s on a busy two-core machine, so a 2 MB context file alone can take
 * ten seconds. Allowed: 50 KB/s.
 */
const ANSWER_MS_PER_BYTE = 0.02;

const encoder = new TextEncoder();
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const STDERR_TAIL = 1_024;

/**
 * Attaches to a created (not yet started) container whose command is `AGENT_BOOT` and hands it
 * {@link AGENT_SCRIPT}. Attaching before the start means no answer can be missed. `ready` resolves
 * once the agent said it is ready, and rejects with the agent's own complaint, or when the container
 * stopped before that.
 */
export async function attachAgent(container: Docker.Container): Promise<ContainerAgent & { readonly ready: Promise<void> }> {
  const stream = (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as Duplex;
  // Buffered by the container's stdin pipe until the boot line reads it.
  stream.write(`${AGENT_SCRIPT}\n.\n`);
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  /** Data bytes sent with requests not answered yet: the agent reads them before it answers a later request. */
  let backlog = 0;
  let buffered = '';
  let stderr = '';
  const stdoutDecoder = new TextDecoder();
  const stderrDecoder = new TextDecoder();
  let isEnded = false;
  let onReady: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (onReady = { resolve, reject }));
  ready.catch(() => undefined);

  const answer = (line: string): void => {
    const match = /^(\d+) (ok|err)(?: (.*))?$/.exec(line);
    if (match === null) return;
    const [, id, status, text = ''] = match;
    if (id === '0') {
      if (status === 'ok') onReady?.resolve();
      else onReady?.reject(new Error(text));
      return;
    }
    const waiter = pending.get(Number(id));
    if (waiter === undefined) return;
    pending.delete(Number(id));
    if (status === 'ok') waiter.resolve(text);
    else waiter.reject(new Error(text));
  };
  const demuxer = createFrameDemuxer({
    stdout(payload) {
      buffered += stdoutDecoder.decode(payload, { stream: true });
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        answer(buffered.slice(0, newline).replace(/^0 ready$/, '0 ok'));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
      }
    },
    stderr(payload) {
      stderr = (stderr + stderrDecoder.decode(payload, { stream: true })).slice(-STDERR_TAIL);
    },
  });
  const ended = new Promise<void>((resolve) => {
    const end = (): void => {
      if (isEnded) return;
      isEnded = true;
      onReady?.reject(new Error(stderr.trim() || 'the container stopped before its agent was ready'));
      for (const waiter of pending.values()) waiter.reject(new AgentGoneError());
      pending.clear();
      resolve();
    };
    stream.on('data', (chunk: Uint8Array) => demuxer.push(chunk));
    stream.once('end', end);
    stream.once('close', end);
    stream.once('error', end);
  });

  return {
    ready,
    ended,
    get isEnded() {
      return isEnded;
    },
    request(operation, first = '', second = '', data = '') {
      if (isEnded) return Promise.reject(new AgentGoneError());
      if (/[\n\0]/.test(first) || /[\n\0]/.test(second)) return Promise.reject(new Error('an agent argument cannot hold a newline or NUL'));
      const id = nextId++;
      const escaped = escapeData(data);
      backlog += escaped.length;
      const timeoutMs = Math.round(ANSWER_TIMEOUT_MS + backlog * ANSWER_MS_PER_BYTE);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          backlog -= escaped.length;
          reject(new Error(`the container's agent did not answer within ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
        const settle =
          <T>(then: (value: T) => void) =>
          (value: T): void => {
            clearTimeout(timer);
            backlog -= escaped.length;
            then(value);
          };
        pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
        stream.write(Buffer.concat([encoder.encode(`${id}\n${operation}\n${first}\n${second}\n`), escaped, encoder.encode('\n')]));
      });
    },
    stderrTail: () => stderr,
    close() {
      stream.destroy();
    },
  };
}

/** Escapes the three bytes a line read by `read -r` cannot carry, in the form `printf %b` restores. */
function escapeData(data: string | Uint8Array): Uint8Array {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  let extra = 0;
  for (const byte of bytes) if (byte === BACKSLASH || byte === NEWLINE) extra += 1;
  else if (byte === 0) extra += 4;
  if (extra === 0) return bytes;
  const escaped = new Uint8Array(bytes.length + extra);
  let offset = 0;
  for (const byte of bytes) {
    if (byte === BACKSLASH) offset = put(escaped, offset, '\\\\');
    else if (byte === NEWLINE) offset = put(escaped, offset, '\\n');
    else if (byte === 0) offset = put(escaped, offset, '\\0000');
    else escaped[offset++] = byte;
  }
  return escaped;
}

function put(target: Uint8Array, offset: number, text: string): number {
  for (let index = 0; index < text.length; index++) target[offset + index] = text.charCodeAt(index);
  return offset + text.length;
}
