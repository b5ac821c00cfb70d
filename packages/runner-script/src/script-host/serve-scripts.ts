import type { Server, Socket } from 'node:net';
import {
  HooklineError,
  messageOf,
  builtInPresets,
  type EventContext,
  type HookDefinition,
  type Runner,
} from '@hookline/core';
import type { RunResult } from '@hookline/core/plugin';
import { parseMessage, readLines, send, SCRIPT_HOST_PROTOCOL, type RemoteHook } from './host-protocol.ts';
import type { HostFiles } from './host-files.ts';

// Built-in modules through process.getBuiltinModule, not `import`: a host starts while a CLI waits for
// it, and Node's ES module wrapper of a built-in reads all of its exports (loading more of Node).
const { closeSync, openSync, statSync, unlinkSync, writeFileSync, readFileSync } = process.getBuiltinModule('node:fs');
const { connect, createServer } = process.getBuiltinModule('node:net');

/** What a script host serves, and for how long. */
export interface ServeOptions {
  readonly files: HostFiles;
  /** The build key clients must present (and that names the files). */
  readonly key: string;
  /** `@hookline/runner-script`'s runner, in this process started with `--no-node-snapshot`. */
  readonly runner: Runner;
  /** Exit after this long with no client connected and no hook running. */
  readonly idleMs: number;
}

/** How long a new host waits for its first client (the CLI that started it polls for the socket) before it counts as idle. */
const FIRST_CLIENT_MS = 10_000;

/** A lock older than this belongs to a host that died while replacing a stale socket. */
const STALE_LOCK_MS = 10_000;

/** What isolated-vm's catastrophic errors look like in the runner's answers: this process is done serving. */
const CATASTROPHE = 'isolated-vm reported a catastrophic error';

/**
 * Listens on the build's socket and runs the script hooks clients send with the real runner, until
 * idle. Resolves `'taken'` at once when another host already answers there (a concurrent start won),
 * else `'serving'` once listening; the process exits by itself after the idle period.
 */
export async function serveScripts(options: ServeOptions): Promise<'serving' | 'taken'> {
  const { files, key, runner, idleMs } = options;
  const script = runner.types['script'];
  if (script === undefined)
    throw new HooklineError(
      'HOOKLINE_SCRIPT_HOST_MISUSE',
      "the script host's runner has no `script` type; pass @hookline/runner-script's scriptRunner()",
    );
  const connections = new Set<Socket>();
  let running = 0;
  let draining = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const server = createServer((socket) => {
    connections.add(socket);
    clearTimeout(idleTimer);
    const controllers = new Map<number, AbortController>();
    let greeted = false;
    socket.on('error', () => undefined);
    socket.on('close', () => {
      connections.delete(socket);
      // The client is gone (done, or killed): nothing it started is wanted any more.
      for (const controller of controllers.values())
        controller.abort(new HooklineError('HOOKLINE_HOOK_STOPPED', 'the hookline process that sent this hook ended'));
      settleIdle();
    });
    const refuse = (message: string, id?: number): void =>
      send(socket, { t: 'error', message, ...(id === undefined ? {} : { id }) });
    readLines(
      socket,
      (line) => {
        const parsed = parseMessage(line);
        if ('problem' in parsed) {
          refuse(`malformed message to the script host: ${parsed.problem}; the connection is closed`);
          socket.end();
          return;
        }
        const { message } = parsed;
        if (message.t === 'hello') {
          greeted = message['key'] === key && message['protocol'] === SCRIPT_HOST_PROTOCOL;
          // The answer names what this host serves either way: a client of another build sees that and goes elsewhere.
          send(socket, { t: 'hello', protocol: SCRIPT_HOST_PROTOCOL, key, pid: process.pid });
          if (!greeted) socket.end();
          return;
        }
        if (!greeted) {
          refuse(
            "malformed message to the script host: the first message must be `hello` with this build's key; the connection is closed",
          );
          socket.end();
          return;
        }
        if (message.t === 'abort') {
          if (typeof message['id'] === 'number')
            controllers
              .get(message['id'])
              ?.abort(
                new HooklineError(
                  'HOOKLINE_HOOK_STOPPED',
                  typeof message['reason'] === 'string' ? message['reason'] : 'aborted',
                ),
              );
          return;
        }
        if (message.t !== 'run') {
          refuse(`malformed message to the script host: unknown message type ${JSON.stringify(message.t)}`);
          return;
        }
        const request = runRequest(message);
        if (typeof request === 'string') {
          refuse(
            `malformed message to the script host: ${request}`,
            typeof message['id'] === 'number' ? message['id'] : undefined,
          );
          return;
        }
        const controller = new AbortController();
        controllers.set(request.id, controller);
        running++;
        void runOne(script, request, controller.signal).then((result) => {
          controllers.delete(request.id);
          running--;
          if (!socket.destroyed) send(socket, { t: 'result', id: request.id, result });
          if (result.status === 'failed' && result.error.startsWith(CATASTROPHE)) drain();
          settleIdle();
        });
      },
      () => {
        refuse(`malformed message to the script host: a line longer than the limit; the connection is closed`);
        socket.end();
      },
    );
  });

  // `waitMs`: the first wait gives the client that started this host time to connect, however short the idle period.
  const settleIdle = (waitMs = idleMs): void => {
    clearTimeout(idleTimer);
    if (running > 0) return;
    if (draining) {
      exit();
      return;
    }
    if (connections.size > 0) return;
    idleTimer = setTimeout(() => {
      if (connections.size === 0 && running === 0) exit();
    }, waitMs);
  };
  // isolated-vm gave up on this process: new clients go to a new host, running hooks finish here.
  const drain = (): void => {
    draining = true;
    closeListener();
  };
  let ownSocket: { dev: number; ino: number } | undefined;
  const closeListener = (): void => {
    if (!server.listening) return;
    // Closing unlinks the socket file: only when it is still this host's (not one that replaced it).
    if (sameFile(files.socket, ownSocket)) server.close();
    removeIfMine(files.pid, String(process.pid));
  };
  const exit = (): void => {
    closeListener();
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, exit);

  const claimed = await claimSocket(server, files);
  if (claimed === 'taken') return 'taken';
  const info = statSync(files.socket);
  ownSocket = { dev: info.dev, ino: info.ino };
  writeFileSync(files.pid, `${process.pid}\n`, { mode: 0o600 });
  settleIdle(Math.max(idleMs, FIRST_CLIENT_MS));
  // Loads isolated-vm and makes the default isolate now rather than in the first client's hook.
  void runOne(
    script,
    { id: 0, hook: WARM_UP, preset: builtInPresets.fallback.name, contextJson: '{}', timeoutMs: 10_000 },
    new AbortController().signal,
  );
  return 'serving';
}

const WARM_UP: RemoteHook = {
  name: 'warm-up',
  event: 'warm-up',
  timeoutMs: 10_000,
  onError: 'proceed',
  options: { script: 'return true' },
  source: { file: '<script host>', line: 1, index: 0 },
};

interface RunRequest {
  readonly id: number;
  readonly hook: RemoteHook;
  readonly preset: string;
  readonly contextJson: string;
  readonly timeoutMs: number;
}

/** A `run` message checked field by field, or what is wrong with it. */
function runRequest(message: Record<string, unknown>): RunRequest | string {
  const { id, hook, preset, contextJson, timeoutMs } = message;
  if (typeof id !== 'number' || !Number.isInteger(id)) return '`run` needs an integer `id`';
  if (typeof preset !== 'string' || builtInPresets.get(preset) === undefined)
    return `\`run\` needs a known \`preset\`, not ${JSON.stringify(preset)}`;
  if (typeof contextJson !== 'string') return '`run` needs `contextJson`, a string';
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) return '`run` needs a positive `timeoutMs`';
  if (typeof hook !== 'object' || hook === null) return '`run` needs a `hook` object';
  const { name, event, onError, options, source } = hook as Record<string, unknown>;
  if (typeof name !== 'string' || typeof event !== 'string') return 'the hook needs a string `name` and `event`';
  if (onError !== 'proceed' && onError !== 'block') return "the hook's `onError` must be proceed or block";
  if (typeof options !== 'object' || options === null) return 'the hook needs its `options` object';
  if (typeof source !== 'object' || source === null || typeof (source as { file?: unknown }).file !== 'string')
    return 'the hook needs a `source` with a `file`';
  return { id, hook: hook as RemoteHook, preset, contextJson, timeoutMs };
}

/** Runs one hook with the real runner, as the engine would call it; a throw becomes a failed result, as the engine reports it. */
async function runOne(
  script: NonNullable<Runner['types'][string]>,
  request: RunRequest,
  signal: AbortSignal,
): Promise<RunResult> {
  const { hook } = request;
  const definition: HookDefinition = {
    name: hook.name,
    event: hook.event,
    type: 'script',
    blocking: true,
    timeoutMs: hook.timeoutMs,
    sandbox: false,
    onError: hook.onError,
    enabled: true,
    durable: false,
    options: hook.options,
    source: hook.source,
  };
  let context: EventContext;
  try {
    context = JSON.parse(request.contextJson) as EventContext;
  } catch (error) {
    return { status: 'failed', error: `the script host got a context that is not JSON (${messageOf(error)})` };
  }
  try {
    return await script.doRun(definition, {
      context,
      contextJson: request.contextJson,
      signal,
      timeoutMs: request.timeoutMs,
      preset: builtInPresets.get(request.preset)!,
    });
  } catch (error) {
    return { status: 'failed', error: `runner @hookline/runner-script threw: ${messageOf(error)}` };
  }
}

/**
 * Listens on the socket path. A file already there is either a live host's (then this one is not
 * needed) or a stale one left by a host that died; the stale file is replaced under a short lock,
 * so two hosts starting at once never unlink each other's socket.
 */
async function claimSocket(server: Server, files: HostFiles): Promise<'listening' | 'taken'> {
  if (await listen(server, files.socket)) return 'listening';
  if (await answers(files.socket)) return 'taken';
  if (!takeLock(files.lock)) return 'taken';
  try {
    if (await answers(files.socket)) return 'taken';
    try {
      unlinkSync(files.socket);
    } catch {
      // Gone already.
    }
    return (await listen(server, files.socket)) ? 'listening' : 'taken';
  } finally {
    removeIfMine(files.lock, String(process.pid));
  }
}

function listen(server: Server, path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') resolve(false);
      else reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(path);
  });
}

/** Whether something accepts connections on `path` (a stale socket file refuses them). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function takeLock(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const descriptor = openSync(path, 'wx', 0o600);
      writeFileSync(descriptor, String(process.pid));
      closeSync(descriptor);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      try {
        if (Date.now() - statSync(path).mtimeMs < STALE_LOCK_MS) return false;
        unlinkSync(path);
      } catch {
        // Released meanwhile: try again.
      }
    }
  }
  return false;
}

function removeIfMine(path: string, content: string): void {
  try {
    if (readFileSync(path, 'utf8').trim() === content) unlinkSync(path);
  } catch {
    // Gone already.
  }
}

function sameFile(path: string, file: { dev: number; ino: number } | undefined): boolean {
  try {
    const info = statSync(path);
    return file !== undefined && info.dev === file.dev && info.ino === file.ino;
  } catch {
    return false;
  }
}
