import process from 'node:process';

/**
 * Sends `signal` to every process in the group `groupId` (a negative pid addresses the group). Returns
 * whether the group still existed; `0` only probes. EPERM means the group exists but a member is not
 * ours to signal, which still counts as existing.
 */
export function signalGroup(groupId: number, signal: 'SIGTERM' | 'SIGKILL' | 0): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Ends a process group the way every hook ends: SIGTERM to the whole group, then SIGKILL to the
 * group once `graceMs` have passed with any member left. Resolves as soon as the group is empty or
 * the SIGKILL was sent.
 *
 * Zombies still count as members to `kill(2)`, so where nothing reaps orphans (a container whose
 * init does not) the full grace is waited before the SIGKILL, which is harmless.
 */
export async function terminateGroup(groupId: number, graceMs: number): Promise<void> {
  if (!signalGroup(groupId, 'SIGTERM')) return;
  const deadline = performance.now() + graceMs;
  let pause = 10;
  for (let left = graceMs; left > 0; left = deadline - performance.now()) {
    await sleep(Math.min(pause, left));
    if (!signalGroup(groupId, 0)) return;
    // Most groups are gone within a few milliseconds; back off for the ones that trap SIGTERM.
    pause = Math.min(pause * 2, 100);
  }
  signalGroup(groupId, 'SIGKILL');
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
