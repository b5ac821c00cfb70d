import { readProcessStat } from '@hookline/runner-command/process-identity';
import { setTimeout as delay } from 'node:timers/promises';

/** Polls `ready` every `everyMs` (50) until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(what: string, ready: () => boolean, timeoutMs = 20_000, everyMs = 50): Promise<void> {
  for (let waited = 0; !ready(); waited += everyMs) {
    if (waited > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(everyMs);
  }
}

/** Whether a process runs: it has a /proc entry that is not a zombie (a zombie has ended; only its reaping is left). */
export function isRunning(pid: number): boolean {
  const stat = readProcessStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** Ends a process group a test left behind (a hook of a CLI killed with SIGKILL); gone already is fine. */
export function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Not running (or not a group leader): nothing to end.
    }
  }
}
