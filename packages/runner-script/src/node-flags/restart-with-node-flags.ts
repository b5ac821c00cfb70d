import { HooklineError } from '@hookline/core/plugin';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs this program again with `flags` added to Node's, with the same arguments and the same stdio,
 * and resolves to the child's exit code (128 + n when a signal ended it). Signals sent to this
 * process are passed on, so `hookline run` still shuts down cleanly.
 */
export function restartWithNodeFlags(flags: readonly string[], argv: readonly string[]): Promise<number> {
  const script = process.argv[1];
  if (script === undefined) {
    return Promise.reject(
      new HooklineError(
        'HOOKLINE_NODE_FLAGS_REQUIRED',
        `cannot restart with ${flags.join(' ')}: this program's script path is unknown; start Node with ${flags.join(' ')} yourself`,
      ),
    );
  }
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(process.execPath, [...flags, ...process.execArgv, script, ...argv], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const forwarded of FORWARDED) process.off(forwarded, forward);
      resolve(code ?? 128 + (signal === null ? 0 : (osSignalNumber(signal) ?? 0)));
    });
  });
}

function osSignalNumber(signal: NodeJS.Signals): number | undefined {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal as string];
}
