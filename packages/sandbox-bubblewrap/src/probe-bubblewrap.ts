import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BubblewrapUnavailableError } from './bubblewrap-unavailable-error.ts';

const PACKAGE = '@hookline/sandbox-bubblewrap';

/**
 * Runs `true` in a sandbox made with `args` — the very namespaces, binds and options hooks get — and
 * rejects with a {@link BubblewrapUnavailableError} that says what to do when bwrap is missing or
 * the kernel refuses it. `environment` is the clean one hooks get, as everywhere.
 */
export function probeBubblewrap(
  bwrap: string,
  args: readonly string[],
  environment: Readonly<Record<string, string>>,
  user?: { readonly uid: number; readonly gid: number },
): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    // As root, the probe starts bwrap as hooks get it: in a private mount namespace, as nobody (util-linux's unshare and setpriv).
    const [program, ...rest] =
      user === undefined
        ? [bwrap, ...args, '--', 'true']
        : [
            'unshare',
            '--mount',
            '--propagation',
            'private',
            '--',
            'setpriv',
            `--reuid=${user.uid}`,
            `--regid=${user.gid}`,
            '--clear-groups',
            '--',
            bwrap,
            ...args,
            '--',
            'true',
          ];
    const child = spawn(program, rest, { env: environment, stdio: ['ignore', 'ignore', 'pipe'], cwd: '/' });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk.slice(0, 4_096)));
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (user !== undefined && error.code === 'ENOENT') {
        return reject(
          new BubblewrapUnavailableError(
            `${PACKAGE}: Hookline runs as root, and the sandbox starts bwrap in a private mount namespace as uid ${user.uid} (nobody) with unshare and setpriv, which were not found on PATH. Install util-linux (Debian: apt-get install util-linux), or run Hookline as an ordinary user.`,
            { cause: error },
          ),
        );
      }
      const why =
        error.code === 'ENOENT'
          ? `${JSON.stringify(bwrap)} was not found${bwrap.includes('/') ? '' : ` on PATH (${environment['PATH'] ?? 'PATH is not set'})`}`
          : `${JSON.stringify(bwrap)} could not be started (${error.message})`;
      reject(
        new BubblewrapUnavailableError(
          `${PACKAGE}: ${why}. Install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap), set [sandbox.bubblewrap] bwrap to its path, or choose another sandbox ([sandbox] provider = "docker" or "local").`,
          { cause: error },
        ),
      );
    });
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const said = stderr.trim() === '' ? `exit ${code ?? signal}` : stderr.trim();
      // setpriv could not run bwrap as nobody: missing, or in a folder nobody may not pass.
      const notRun = /^(setpriv|unshare): .*(No such file|Permission denied)/.exec(said);
      if (user !== undefined && said.includes('failed to execute setpriv')) {
        return reject(
          new BubblewrapUnavailableError(
            `${PACKAGE}: Hookline runs as root, and the sandbox starts bwrap as uid ${user.uid} (nobody) with setpriv, which could not be run (${said}). Install util-linux (Debian: apt-get install util-linux), or run Hookline as an ordinary user.`,
          ),
        );
      }
      if (notRun !== null) {
        const reason =
          said.includes('No such file') || (bwrap.includes('/') && !existsSync(bwrap))
            ? `${JSON.stringify(bwrap)} was not found${bwrap.includes('/') ? '' : ` on PATH (${environment['PATH'] ?? 'PATH is not set'})`}. Install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap) or set [sandbox.bubblewrap] bwrap to its path`
            : `Hookline runs as root and starts bwrap as uid 65534 (nobody), which may not run ${JSON.stringify(bwrap)} (${said}); put bwrap where every user may run it`;
        return reject(
          new BubblewrapUnavailableError(`${PACKAGE}: ${reason}. Sandboxed hooks do not run until it works.`),
        );
      }
      const userNamespaces = /namespace|permission|not permitted|No space left/i.test(said);
      reject(
        new BubblewrapUnavailableError(
          userNamespaces
            ? `${PACKAGE}: bwrap cannot create a sandbox here (bwrap: ${said}). Unprivileged user namespaces are probably disabled: check the sysctls kernel.unprivileged_userns_clone (must be 1 where it exists), user.max_user_namespaces (must be above 0) and, on Ubuntu, kernel.apparmor_restrict_unprivileged_userns; inside a container, allow user namespaces (e.g. a seccomp profile that permits clone/unshare). Sandboxed hooks do not run until it works.`
            : `${PACKAGE}: bwrap could not make a sandbox (bwrap: ${said}). Check [sandbox.bubblewrap]; sandboxed hooks do not run until it works.`,
        ),
      );
    });
  });
}
