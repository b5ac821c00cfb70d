import { HooklineError, type HookDefinition, type Runner } from '@hookline/core/plugin';
import type { HostConnection } from './host-connection.ts';
import type { RemoteHook } from './host-protocol.ts';
import type { HostUnavailable } from './open-script-host.ts';

// Built-in modules through process.getBuiltinModule, not `import`: this runs on the CLI's `emit` path,
// and Node's ES module wrapper of a built-in reads all of its exports (loading more of Node) on import.
// eslint-disable-next-line @typescript-eslint/unbound-method -- node:path's functions do not use `this`
const { isAbsolute, resolve } = process.getBuiltinModule('node:path');

/**
 * `@hookline/runner-script`'s runner with its `script` type's runs sent to the script host. Everything
 * else stays the local runner's: the keys schema, the load-time checks (syntax errors with file and
 * line), defaults and naming — so loading a config is exactly as without the host. The host runs each
 * hook with the same runner, so answers, errors and limits are the same too. When the connection is
 * gone (the host exited while a long `hookline run` waited), the next hook opens a new one.
 */
export function remoteScriptRunner(
  local: Runner,
  first: HostConnection,
  reopen: () => Promise<HostConnection | HostUnavailable>,
  cwd: string,
): Runner {
  const script = local.types['script'];
  if (script === undefined)
    throw new HooklineError(
      'HOOKLINE_SCRIPT_HOST_MISUSE',
      `${local.name} has no \`script\` type; pass @hookline/runner-script's scriptRunner()`,
    );
  let connection = first;
  let reopening: Promise<HostConnection | HostUnavailable> | undefined;
  const startReopening = (): Promise<HostConnection | HostUnavailable> =>
    (reopening ??= reopen().then((next) => {
      reopening = undefined;
      if ('pid' in next) adopt(next);
      return next;
    }));
  // A host lost between hooks (killed, crashed) is replaced at once, so the next hook's deadline
  // does not pay for starting one — a long `hookline run` may wait for its next event a while.
  const adopt = (next: HostConnection): void => {
    connection = next;
    next.onLost(() => void startReopening());
  };
  adopt(first);
  const current = async (): Promise<HostConnection | HostUnavailable> =>
    connection.isOpen() ? connection : startReopening();
  return {
    ...local,
    types: {
      ...local.types,
      script: {
        ...script,
        async doRun(hook, call) {
          const host = await current();
          if (!('pid' in host)) {
            return {
              status: 'failed',
              error: `no script host could run this hook: ${host.problem}. Set HOOKLINE_SCRIPT_HOST=off to run script hooks in the hookline process itself`,
            };
          }
          return host.run(
            {
              hook: remoteHook(hook, cwd),
              preset: call.preset.name,
              contextJson: call.contextJson,
              timeoutMs: call.timeoutMs,
            },
            call.signal,
          );
        },
      },
    },
    async doClose() {
      connection.close();
      await local.doClose?.();
    },
  };
}

/** The hook as the host needs it; a relative source (text from stdin, a relative `--config`) made absolute from the CLI's folder. */
function remoteHook(hook: HookDefinition, cwd: string): RemoteHook {
  const { file } = hook.source;
  const absolute = file.startsWith('file:') || isAbsolute(file) ? file : resolve(cwd, file);
  return {
    name: hook.name,
    event: hook.event,
    timeoutMs: hook.timeoutMs,
    onError: hook.onError,
    options: hook.options,
    source: { ...hook.source, file: absolute },
  };
}
