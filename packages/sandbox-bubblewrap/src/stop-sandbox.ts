import { readFileSync } from 'node:fs';
import { signalGroup } from '@hookline/runner-command';
import { readProcessStat } from '@hookline/runner-command/process-identity';

/**
 * Ends a sandbox as every hook is ended: SIGTERM to the hook's processes, the grace, then SIGKILL.
 * Inside, the namespace's pid 1 (bwrap's init) leads the session and process group the hook runs in
 * (`--new-session`); it ignores SIGTERM itself, so the signal reaches the hook and whatever stayed in
 * its group. Then SIGKILL to that group and to bwrap's (whose death also kills pid 1, through
 * `--die-with-parent`); the kernel ends every process of a pid namespace whose pid 1 dies, so nothing
 * survives, not even a `setsid` escapee.
 */
export async function stopSandbox(bwrapPid: number, graceMs: number): Promise<void> {
  const init = children(bwrapPid)[0];
  if (init !== undefined && graceMs > 0 && signalGroup(init, 'SIGTERM')) {
    const deadline = performance.now() + graceMs;
    let pause = 10;
    // bwrap exits as soon as the hook's main process has: then nothing is left to wait for.
    while (performance.now() < deadline && isRunning(bwrapPid)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, deadline - performance.now())));
      pause = Math.min(pause * 2, 100);
    }
  }
  // bwrap first: killed before its child dies, it reports the kill rather than an exit status of 137.
  signalGroup(bwrapPid, 'SIGKILL');
  if (init !== undefined) signalGroup(init, 'SIGKILL');
}

// The children of a process, from the kernel's list of its main thread's children (Linux ≥ 3.5).
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

// Whether the process has not exited yet (a zombie has: its state is Z).
function isRunning(pid: number): boolean {
  const stat = readProcessStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}
