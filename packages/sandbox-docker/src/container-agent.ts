import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { HooklineError } from '@hookline/core/plugin';
import { AGENT_NAME, AGENT_SCRIPT } from './agent-script.ts';
import { createAnswerReader, type AgentAnswer } from './agent-answers.ts';
import { isContainerGone } from './docker-errors.ts';
import { createFrameDemuxer } from './frame-demuxer.ts';
import { runExec } from './run-exec.ts';

/**
 * An operation of the agent: write a file, remove one, kill (or count) an exec's processes, read
 * counters, ping, start a hook (`x`), collect a started hook's output (`o`).
 */
export type AgentOperation = 'w' | 'r' | 'k' | 'c' | 'p' | 'x' | 'o';

/** The host side of a container's agent. */
export interface ContainerAgent {
  /**
   * Sends a request; resolves to the answer (the text after `ok`, and for `o` the output it carried),
   * rejects with the agent's `err` message or when the container stopped. Once the resident agent is
   * gone, each request is a one-shot exec of the agent's script instead (except `x`, which rejects).
   */
  request(operation: AgentOperation, first?: string, second?: string, data?: string | Uint8Array): Promise<AgentAnswer>;
  /**
   * A free slot for a hook's output files (`N.o`, `N.e`), which the capture processes of that hook
   * alone write until {@link releaseSlot} — after its output was taken and no capture process is left.
   */
  takeSlot(): number;
  releaseSlot(slot: number): void;
  /** Calls `listener` with each report (`x STATUS`, `o`, `e`) of the hook started with `key`, until the returned function is called. */
  listen(key: string, listener: (report: string) => void): () => void;
  /** Whether the agent starts hooks itself (the image has the tools for it) and is still there. */
  readonly startsHooks: boolean;
  /** Why the resident agent is gone while the container runs on, once it is. */
  readonly gone: string | undefined;
  /** Resolves when the agent's stream ends: the container stopped, or {@link close} was called. */
  readonly ended: Promise<void>;
  readonly isEnded: boolean;
  /** The agent's last stderr bytes (its complaints, if it died), for messages. */
  stderrTail(): string;
  /** Detaches; the container keeps running. */
  close(): void;
}

/** Thrown by {@link ContainerAgent.request} when the agent is gone (the container stopped) or detached. */
export class AgentGoneError extends HooklineError {
  constructor(message = "the run's container stopped") {
    super('HOOKLINE_DOCKER_AGENT_GONE', message);
    this.name = 'AgentGoneError';
  }
}

/**
 * Thrown by {@link ContainerAgent.request} when the agent answered with a failure, did not answer in
 * time, or was asked something it cannot carry. The sandbox reports it as the hook's failure.
 */
export class AgentRequestError extends HooklineError {
  constructor(message: string) {
    super('HOOKLINE_DOCKER_AGENT_FAILED', message);
    this.name = 'AgentRequestError';
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
/**
 * Room for what a one-shot agent exec prints: a collection of two streams at the largest cap the
 * agent takes (8 MiB each), as base64 (4 bytes for 3, plus a newline every 76).
 */
const EXEC_ANSWER_BYTES = 24 * 1024 * 1024;

const encoder = new TextEncoder();
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const STDERR_TAIL = 1_024;
const REPORT = /^hookline (\S+) (.+)$/;

/**
 * Attaches to a created (not yet started) container whose command is `AGENT_BOOT` and hands it
 * {@link AGENT_SCRIPT}. Attaching before the start means no answer can be missed. `ready` resolves
 * once the agent said it is ready, and rejects with the agent's own complaint, or when the container
 * stopped before that.
 */
export async function attachAgent(
  container: Docker.Container,
): Promise<ContainerAgent & { readonly ready: Promise<void> }> {
  const stream = (await container.attach({
    stream: true,
    stdin: true,
    stdout: true,
    stderr: true,
    hijack: true,
  })) as Duplex;
  // Buffered by the container's stdin pipe until the boot line reads it.
  stream.write(`${AGENT_SCRIPT}\n.\n`);
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, (report: string) => void>();
  let nextId = 1;
  const freeSlots: number[] = [];
  let slots = 0;
  /** Data bytes sent with requests not answered yet: the agent reads them before it answers a later request. */
  let backlog = 0;
  let stderr = '';
  let stderrLine = '';
  const stderrDecoder = new TextDecoder();
  let isEnded = false;
  let gone: string | undefined;
  let startsHooks = false;
  let onReady: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (onReady = { resolve, reject }));
  ready.catch(() => undefined);

  const reader = createAnswerReader({
    ready(detail) {
      startsHooks = detail.split(' ')[1] === '1';
      onReady?.resolve();
    },
    failed(message) {
      onReady?.reject(new AgentRequestError(message));
    },
    gone(status) {
      gone = `the container's agent exited (status ${status})`;
      // Requests it had not answered yet are asked again of a one-shot agent, except hook starts: whether the hook started is unknown.
      for (const [id, waiter] of [...pending]) {
        pending.delete(id);
        waiter.retry();
      }
    },
    answer(id, answer) {
      const waiter = pending.get(id);
      if (waiter === undefined) return;
      pending.delete(id);
      waiter.settle(answer);
    },
  });
  const demuxer = createFrameDemuxer({
    stdout: (payload) => reader.push(payload),
    stderr(payload) {
      const text = stderrDecoder.decode(payload, { stream: true });
      stderrLine += text;
      let newline = stderrLine.indexOf('\n');
      while (newline >= 0) {
        const line = stderrLine.slice(0, newline);
        stderrLine = stderrLine.slice(newline + 1);
        newline = stderrLine.indexOf('\n');
        const report = REPORT.exec(line);
        if (report !== null) listeners.get(report[1]!)?.(report[2]!);
        else stderr = `${stderr}${line}\n`.slice(-STDERR_TAIL);
      }
    },
  });
  const ended = new Promise<void>((resolve) => {
    const end = (): void => {
      if (isEnded) return;
      isEnded = true;
      onReady?.reject(new AgentRequestError(stderr.trim() || 'the container stopped before its agent was ready'));
      for (const waiter of pending.values()) waiter.reject(new AgentGoneError());
      pending.clear();
      resolve();
    };
    stream.on('data', (chunk: Uint8Array) => demuxer.push(chunk));
    stream.once('end', end);
    stream.once('close', end);
    stream.once('error', end);
  });

  const viaExec = async (
    operation: AgentOperation,
    first: string,
    second: string,
    data: string | Uint8Array,
  ): Promise<AgentAnswer> => {
    if (operation === 'x')
      throw new AgentGoneError(`${gone ?? "the container's agent is gone"}; the hook was not started`);
    let raw;
    try {
      raw = await runExec(container, {
        cmd: ['sh', '-c', AGENT_SCRIPT, AGENT_NAME, 'once'],
        stdin: encodeRequest(1, operation, first, second, data),
        maxOutputBytes: EXEC_ANSWER_BYTES,
      });
    } catch (error) {
      if (isContainerGone(error)) throw new AgentGoneError();
      throw error;
    }
    let result: AgentAnswer | undefined;
    const once = createAnswerReader({ answer: (id, answer) => id === 1 && (result = answer) });
    once.push(raw.stdout);
    once.push(encoder.encode('\n'));
    if (result === undefined)
      throw new AgentRequestError(
        `the one-shot agent exec gave no answer (exit code ${String(raw.exitCode)}): ${new TextDecoder().decode(raw.stderr).trim()}`,
      );
    if (result.error !== undefined) throw new AgentRequestError(result.error);
    return result;
  };

  const request = (
    operation: AgentOperation,
    first = '',
    second = '',
    data: string | Uint8Array = '',
  ): Promise<AgentAnswer> => {
    if (isEnded) return Promise.reject(new AgentGoneError());
    if (/[\n\0]/.test(first) || /[\n\0]/.test(second))
      return Promise.reject(
        new AgentRequestError('A path or argument for the container cannot hold a newline or NUL: rename it.'),
      );
    if (gone !== undefined) return viaExec(operation, first, second, data);
    const id = nextId++;
    const message = encodeRequest(id, operation, first, second, data);
    backlog += message.length;
    const timeoutMs = Math.round(ANSWER_TIMEOUT_MS + backlog * ANSWER_MS_PER_BYTE);
    return new Promise<AgentAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        backlog -= message.length;
        reject(new AgentRequestError(`the container's agent did not answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        backlog -= message.length;
      };
      pending.set(id, {
        settle(answer) {
          done();
          if (answer.error === undefined) resolve(answer);
          else reject(new AgentRequestError(answer.error));
        },
        reject(error) {
          done();
          reject(error);
        },
        retry() {
          done();
          viaExec(operation, first, second, data).then(resolve, reject);
        },
      });
      stream.write(message);
    });
  };

  return {
    ready,
    ended,
    get isEnded() {
      return isEnded;
    },
    get gone() {
      return gone;
    },
    get startsHooks() {
      return startsHooks && gone === undefined && !isEnded;
    },
    request,
    takeSlot: () => freeSlots.pop() ?? slots++,
    releaseSlot(slot) {
      freeSlots.push(slot);
    },
    listen(key, listener) {
      listeners.set(key, listener);
      return () => listeners.delete(key);
    },
    stderrTail: () => stderr,
    close() {
      stream.destroy();
    },
  };
}

interface Pending {
  settle(answer: AgentAnswer): void;
  reject(error: Error): void;
  retry(): void;
}

/** One request as the agent reads it: five lines, the data escaped. */
function encodeRequest(
  id: number,
  operation: AgentOperation,
  first: string,
  second: string,
  data: string | Uint8Array,
): Uint8Array {
  return Buffer.concat([
    encoder.encode(`${id}\n${operation}\n${first}\n${second}\n`),
    escapeData(data),
    encoder.encode('\n'),
  ]);
}

/** Escapes the three bytes a line read by `read -r` cannot carry, in the form `printf %b` restores. */
function escapeData(data: string | Uint8Array): Uint8Array {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  let extra = 0;
  for (const byte of bytes)
    if (byte === BACKSLASH || byte === NEWLINE) extra += 1;
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
