import { readFileSync } from 'node:fs';
import { signalGroup } from '@hookline/runner-command';

/**
 * Ends a sandbox as SPEC §7 ends a hook: SIGTERM to the hook's process group, the grace, then SIGKILL.
 * The SIGKILL goes to bwrap's own group — bwrap and the namespace's pid 1 — and the kernel ends every
 * process of a pid namespace whose pid 1 dies, so nothing survives, not even a `setsid` escapee. The
 * hook's group is found through the process tree (`bwrap → pid 1 → hook`): bwrap's pid 1 ignores
 * SIGTERM, and the hook leads a session of its own (`--new-session`).
 */
export async function stopSandbox(bwrapPid: number, graceMs: number): Promise<void> {
  const hook = children(bwrapPid).flatMap(children)[0];
  if (hook !== undefined && graceMs > 0 && signalGroup(hook, 'SIGTERM')) {
    const deadline = performance.now() + graceMs;
    let pause = 10;
    while (performance.now() < deadline && signalGroup(hook, 0)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, deadline - performance.now())));
      pause = Math.min(pause * 2, 100);
    }
  }
  signalGroup(bwrapPid, 'SIGKILL');
}

// The children of a process, from the kernel's list of its main thread's children (Linux ≥ 3.5).
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
