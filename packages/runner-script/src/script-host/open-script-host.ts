import { connectHost, type HostConnection } from './host-connection.ts';
import { hostFiles, privateDirectoryProblem, scriptHostDirectory, type HostFiles } from './host-files.ts';
import { SCRIPT_HOST_PROTOCOL } from './host-protocol.ts';

// Built-in modules through process.getBuiltinModule, not `import`: this runs on the CLI's `emit` path,
// and Node's ES module wrapper of a built-in reads all of its exports (loading more of Node) on import.
const { spawn } = process.getBuiltinModule('node:child_process');
const { createHash } = process.getBuiltinModule('node:crypto');
const { closeSync, openSync, readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { fileURLToPath } = process.getBuiltinModule('node:url');
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Why no host serves this process, and whether the user should hear of it (a folder they must fix, a host that failed). */
export interface HostUnavailable {
  readonly problem: string;
  readonly tell: boolean;
}

/** How long a starting host may take to listen before the program gives up on it and restarts itself instead. */
const START_TIMEOUT_MS = 10_000;
/** Logs are appended to; one grown past this is started afresh. */
const MAX_LOG_BYTES = 1024 * 1024;

/**
 * What of the environment reaches the host, and is part of its key: how Node runs, and the time zone
 * and locale, which scripts see through `Date` and `Intl` as they would in the CLI's own process.
 * Nothing else is passed on (scripts have no `process.env`; the host needs no secret).
 */
const HOST_ENVIRONMENT = ['NODE_OPTIONS', 'NODE_ICU_DATA', 'TZ', 'LANG', 'LC_ALL', 'LC_MESSAGES'] as const;

/** The build of the program that uses the host, which the host shares: its id and, for a bundled program, its copy of core. */
export interface ScriptHostBuild {
  /** Names the program's build (the CLI: a hash of its bundle); a host of another build never serves it. */
  readonly id: string;
  /** The module the host loads for `@hookline/core`: a bundled program's own copy, so both run the same core. */
  readonly coreUrl?: string;
}

/**
 * The key of this build, which names its host's files: this package's build id (written by
 * scripts/write-build-id.ts from dist/), the calling program's build, the Node that runs both, and the
 * environment the host gets. Undefined when either runs from its sources (no build id): no host then.
 */
export function scriptHostKey(
  build: ScriptHostBuild | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (build === undefined) return undefined;
  let ownBuildId: string;
  try {
    ownBuildId = readFileSync(new URL('../build-id', import.meta.url), 'utf8').trim();
  } catch {
    return undefined;
  }
  const identity = [
    SCRIPT_HOST_PROTOCOL,
    ownBuildId,
    build.id,
    build.coreUrl ?? '',
    process.execPath,
    process.version,
    ...process.execArgv,
    ...HOST_ENVIRONMENT.map((name) => `${name}=${env[name] ?? ''}`),
  ].join('\0');
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}

/**
 * A connection to this build's script host: the running one, or one started now (detached, in its
 * own session, so it outlives this process and serves the next). Every way that fails is an answer
 * that makes the program run script hooks as before: by restarting itself with `--no-node-snapshot`.
 */
export async function openScriptHost(
  env: Readonly<Record<string, string | undefined>>,
  build: ScriptHostBuild | undefined,
): Promise<HostConnection | HostUnavailable> {
  const key = scriptHostKey(build, env);
  if (key === undefined)
    return {
      problem: 'the program or @hookline/runner-script runs from its sources, which have no build id',
      tell: false,
    };
  const folder = scriptHostDirectory(env);
  const problem = privateDirectoryProblem(folder);
  if (problem !== undefined) return { problem, tell: true };
  const files = hostFiles(folder, key);
  const existing = await connectHost(files.socket, key);
  if ('pid' in existing) return existing;
  if (existing.kind === 'foreign') return { problem: existing.reason, tell: true };
  return startHost(folder, files, key, build?.coreUrl, env);
}

async function startHost(
  folder: string,
  files: HostFiles,
  key: string,
  coreUrl: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<HostConnection | HostUnavailable> {
  const script = fileURLToPath(new URL('./script-host.js', import.meta.url));
  let log: number;
  try {
    log = openSync(files.log, logTooLong(files.log) ? 'w' : 'a', 0o600);
  } catch (error) {
    return { problem: `the script host's log ${files.log} cannot be opened (${(error as Error).message})`, tell: true };
  }
  // Its own session and no terminal: the host outlives this process and no signal to its group reaches it.
  const child = spawn(
    process.execPath,
    ['--no-node-snapshot', ...process.execArgv, script, folder, key, ...(coreUrl === undefined ? [] : [coreUrl])],
    {
      detached: true,
      stdio: ['ignore', log, log],
      cwd: folder,
      env: Object.fromEntries(
        [...HOST_ENVIRONMENT, 'HOOKLINE_SCRIPT_HOST_IDLE_MS'].flatMap((name) =>
          env[name] === undefined ? [] : [[name, env[name]]],
        ),
      ),
    },
  );
  closeSync(log);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.once('exit', (code, signal) => (exit = { code, signal }));
  child.once('error', () => (exit = { code: null, signal: null }));
  child.unref();
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await delay(15);
    const connected = await connectHost(files.socket, key);
    if ('pid' in connected) return connected;
    if (connected.kind === 'foreign') return { problem: connected.reason, tell: true };
    // Exit 0: another host started at the same moment won the socket; it answers soon.
    if (exit !== undefined && exit.code !== 0) {
      return {
        problem: `the script host could not start (${exit.signal ?? `exit code ${exit.code}`}); its log: ${files.log}${logTail(files.log)}`,
        tell: true,
      };
    }
  }
  if (exit === undefined && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
  return {
    problem: `the script host did not answer within ${START_TIMEOUT_MS / 1000} s; its log: ${files.log}`,
    tell: true,
  };
}

function logTooLong(path: string): boolean {
  try {
    return statSync(path).size > MAX_LOG_BYTES;
  } catch {
    return false;
  }
}

function logTail(path: string): string {
  try {
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    return `, ending: ${lines.slice(-3).join(' | ')}`;
  } catch {
    return '';
  }
}
