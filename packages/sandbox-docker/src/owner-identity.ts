import { hostname } from 'node:os';
import process from 'node:process';
import { bootId, isSameProcess, processIdentity } from '@hookline/runner-command/process-identity';
import { LABELS } from './labels.ts';

/** Which process, on which machine and boot, owns a container. */
export interface OwnerIdentity {
  readonly pid: number;
  readonly host: string;
  readonly boot: string;
  /** The process's start time as the system records it; empty when unknown. */
  readonly start: string;
}

let current: OwnerIdentity | undefined;

/** This process's identity, read once. */
export function currentOwner(): OwnerIdentity {
  current ??= { pid: process.pid, host: hostname(), boot: bootId(), start: processIdentity()?.start ?? '' };
  return current;
}

/** The owner labels for a container this process creates. */
export function ownerLabels(owner: OwnerIdentity = currentOwner()): Record<string, string> {
  return {
    [LABELS.ownerPid]: String(owner.pid),
    [LABELS.ownerHost]: owner.host,
    [LABELS.ownerBoot]: owner.boot,
    [LABELS.ownerStart]: owner.start,
  };
}

/**
 * What is known about a container's owner: `alive`, `gone` (same machine and boot, and the process
 * no longer exists or its id now belongs to a newer process; or the machine rebooted since), or
 * `unknown` (another machine sharing the engine, or labels missing) — never removed automatically.
 */
export function ownerState(
  labels: Readonly<Record<string, string>>,
  self: OwnerIdentity = currentOwner(),
): 'alive' | 'gone' | 'unknown' {
  const pid = Number(labels[LABELS.ownerPid]);
  if (!Number.isSafeInteger(pid) || pid <= 0 || labels[LABELS.ownerHost] !== self.host) return 'unknown';
  // Same host name, another boot: the machine restarted, so every process of the old boot is gone.
  if (labels[LABELS.ownerBoot] !== self.boot) return 'gone';
  if (pid === self.pid) return labels[LABELS.ownerStart] === self.start ? 'alive' : 'gone';
  // A zombie has exited; a pid that runs another process (started at another time) was reused.
  return isSameProcess({ pid, start: labels[LABELS.ownerStart] ?? '' }) ? 'alive' : 'gone';
}
