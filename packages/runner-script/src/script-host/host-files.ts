// Built-in modules through process.getBuiltinModule, not `import`: this runs on the CLI's `emit` path,
// and Node's ES module wrapper of a built-in reads all of its exports (loading more of Node) on import.
const { lstatSync, mkdirSync } = process.getBuiltinModule('node:fs');
const { tmpdir } = process.getBuiltinModule('node:os');
// eslint-disable-next-line @typescript-eslint/unbound-method -- node:path's functions do not use `this`
const { join } = process.getBuiltinModule('node:path');

/** The files of one build's script host in the private folder. */
export interface HostFiles {
  /** The Unix socket clients connect to. */
  readonly socket: string;
  /** The host's pid, written once it listens and removed when it exits. */
  readonly pid: string;
  /** The host's stdout and stderr (it has no terminal): why it could not start, if it could not. */
  readonly log: string;
  /** Held for the moment a host replaces a socket file that no host answers on. */
  readonly lock: string;
}

/** The names, keyed by the build: a host of another build has files of its own and never serves this one. */
export function hostFiles(folder: string, key: string): HostFiles {
  const base = join(folder, `script-${key}`);
  return { socket: `${base}.sock`, pid: `${base}.pid`, log: `${base}.log`, lock: `${base}.lock` };
}

/** How long a host waits without a client before it exits, unless `HOOKLINE_SCRIPT_HOST_IDLE_MS` says otherwise. */
export const DEFAULT_IDLE_MS = 60_000;

/** The idle period from the environment: a non-negative integer of milliseconds, else the default. */
export function idleMilliseconds(env: Readonly<Record<string, string | undefined>>): number {
  const text = env['HOOKLINE_SCRIPT_HOST_IDLE_MS'];
  const value = text === undefined || text.trim() === '' ? Number.NaN : Number(text);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_IDLE_MS;
}

/**
 * The folder that holds script hosts' sockets, pid files and logs: `HOOKLINE_SCRIPT_HOST_DIR`, else
 * `$XDG_RUNTIME_DIR/hookline` (per user, on a tmpfs, emptied at logout), else `<tmpdir>/hookline-<uid>`.
 */
export function scriptHostDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const chosen = env['HOOKLINE_SCRIPT_HOST_DIR'];
  if (chosen !== undefined && chosen !== '') return chosen;
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime !== undefined && runtime !== '') return join(runtime, 'hookline');
  return join(tmpdir(), `hookline-${process.getuid?.() ?? 'user'}`);
}

/**
 * Makes `folder` (mode 0700) when it is missing, and returns why it must not be used when it is not
 * private: a symlink, not a folder, owned by someone else, or open to the group or others. Anyone who
 * can write there could put a socket of their own where the CLI sends its hooks' context.
 */
export function privateDirectoryProblem(folder: string): string | undefined {
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      return `${folder} cannot be created (${(error as Error).message})`;
  }
  const info = lstatSync(folder);
  const uid = process.getuid?.();
  if (info.isSymbolicLink())
    return `${folder} is a symbolic link; remove it (the CLI makes the folder itself, mode 0700)`;
  if (!info.isDirectory()) return `${folder} is not a folder; remove it (the CLI makes the folder itself, mode 0700)`;
  if (uid !== undefined && info.uid !== uid)
    return `${folder} belongs to uid ${info.uid}, not to this user (uid ${uid}); remove it or set HOOKLINE_SCRIPT_HOST_DIR to a folder of your own`;
  if ((info.mode & 0o077) !== 0)
    return `${folder} is open to other users (mode ${(info.mode & 0o777).toString(8)}); run \`chmod 700 ${folder}\``;
  return undefined;
}
