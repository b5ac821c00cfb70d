import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { finished, startCli, type CliResult, type Scratch } from './run-cli.ts';
import { waitFor } from './processes.ts';

/** The folders one daemon's user has: home, config, state and runtime, all in the scratch folder. */
export function daemonEnv(scratch: Scratch): Record<string, string> {
  const env = {
    HOME: join(scratch.path, 'home'),
    XDG_CONFIG_HOME: join(scratch.path, 'home', '.config'),
    XDG_STATE_HOME: join(scratch.path, 'home', '.local', 'state'),
    XDG_RUNTIME_DIR: join(scratch.path, 'run'),
  };
  mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  return env;
}

/** A `hookline serve` process of a test, and how to call it. */
export interface TestDaemon {
  readonly child: ChildProcess;
  readonly port: number;
  readonly token: string;
  readonly socket: string;
  /** Everything it printed and how it ended, once it exits. */
  readonly exited: Promise<CliResult>;
  /** POST `body` (JSON) to `path`: over TCP with the token unless `token: false`, or over the socket. */
  post(
    path: string,
    body: unknown,
    options?: { readonly via?: 'tcp' | 'socket'; readonly token?: boolean },
  ): Promise<Reply>;
  get(path: string): Promise<Reply>;
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Starts `hookline serve` with the scratch folder's user and waits until it has written its port. */
export async function startDaemon(
  scratch: Scratch,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<TestDaemon> {
  const state = join(env['XDG_STATE_HOME']!, 'hookline');
  // With the script hooks' Node flag given, the daemon is this process itself, not a restarted child:
  // a signal a test sends reaches the daemon.
  const child = startCli(['serve', ...args], { cwd: scratch.path, env, nodeOptions: ['--no-node-snapshot'] });
  child.stdin!.end();
  const exited = finished(child);
  let ended = false;
  void exited.then(() => (ended = true));
  await waitFor('the daemon to write serve.port', () => ended || existsSync(join(state, 'serve.port')), 60_000);
  if (ended) throw new Error(`hookline serve exited early: ${JSON.stringify(await exited)}`);
  const port = Number(readFileSync(join(state, 'serve.port'), 'utf8'));
  const token = readFileSync(join(state, 'serve-token'), 'utf8').trim();
  const socket = join(env['XDG_RUNTIME_DIR']!, 'hookline', 'serve.sock');
  const send = (method: string, path: string, body: string | undefined, via: 'tcp' | 'socket', withToken: boolean) =>
    new Promise<Reply>((resolve, reject) => {
      const target = via === 'tcp' ? { host: '127.0.0.1', port } : { socketPath: socket };
      const outgoing = request(
        { ...target, method, path, headers: withToken && via === 'tcp' ? { authorization: `Bearer ${token}` } : {} },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return {
    child,
    port,
    token,
    socket,
    exited,
    post: (path, body, options = {}) =>
      send('POST', path, JSON.stringify(body), options.via ?? 'tcp', options.token ?? true),
    get: (path) => send('GET', path, undefined, 'socket', false),
  };
}
