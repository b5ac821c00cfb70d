import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/** Where the daemon of one user keeps its files. */
export interface ServePaths {
  /** `$XDG_STATE_HOME/hookline` (`~/.local/state/hookline`): state, token, trust records, log. */
  readonly stateDir: string;
  /** The running daemon's pid, port and socket (`serve.json`), written when it listens. */
  readonly stateFile: string;
  /** The running daemon's TCP port alone (`serve.port`), for the shim, which reads it without a JSON parser. */
  readonly portFile: string;
  /** The per-user token the TCP listener requires (`serve-token`, mode 0600). */
  readonly tokenFile: string;
  /** The trusted project configs (`trusted.json`, mode 0600). */
  readonly trustFile: string;
  /** Where `--detach` sends the daemon's log lines (`serve.log`). */
  readonly logFile: string;
  /** The folder of the socket: `$XDG_RUNTIME_DIR/hookline`, else `$TMPDIR/hookline-<uid>` (mode 0700). */
  readonly socketDir: string;
  /** The Unix socket (`serve.sock`, mode 0600). */
  readonly socketFile: string;
}

/**
 * The paths for the environment's user. The socket goes to `$XDG_RUNTIME_DIR` (a per-user tmpfs,
 * cleaned at logout); without one (macOS, containers) to a private folder in the temporary directory,
 * named by the user id so that two users never share it. Both folders are created mode 0700 and must
 * be owned by the user (checked where they are created).
 */
export function servePaths(env: Readonly<Record<string, string | undefined>> = process.env): ServePaths {
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  const stateHome = absolute(env['XDG_STATE_HOME']) ?? join(home, '.local', 'state');
  const stateDir = join(stateHome, 'hookline');
  const runtime = absolute(env['XDG_RUNTIME_DIR']);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const socketDir = runtime === undefined ? join(tmpdir(), `hookline-${uid}`) : join(runtime, 'hookline');
  return {
    stateDir,
    stateFile: join(stateDir, 'serve.json'),
    portFile: join(stateDir, 'serve.port'),
    tokenFile: join(stateDir, 'serve-token'),
    trustFile: join(stateDir, 'trusted.json'),
    logFile: join(stateDir, 'serve.log'),
    socketDir,
    socketFile: join(socketDir, 'serve.sock'),
  };
}

// XDG says relative values are invalid and must be ignored.
function absolute(value: string | undefined): string | undefined {
  return value !== undefined && value.startsWith('/') ? value : undefined;
}
