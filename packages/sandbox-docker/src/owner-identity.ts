import { readFileSync } from 'node:fs';
import { hostname, uptime } from 'node:os';
import process from 'node:process';
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
  current ??= { pid: process.pid, host: hostname(), boot: bootId(), start: processStart(process.pid) ?? '' };
  return current;
}

/** The owner labels for a container this process creates. */
export function ownerLabels(owner: OwnerIdentity = currentOwner()): Record<string, string> {
  return { [LABELS.ownerPid]: String(owner.pid), [LABELS.ownerHost]: owner.host, [LABELS.ownerBoot]: owner.boot, [LABELS.ownerStart]: owner.start };
}

/**
 * What is known about a container's owner: `alive`, `gone` (same machine and boot, and the process
 * no longer exists or its id now belongs to a newer process; or the machine rebooted since), or
 * `unknown` (another machine sharing the engine, or labels missing) — never removed automatically.
 */
export function ownerState(labels: Readonly<Record<string, string>>, self: OwnerIdentity = currentOwner()): 'alive' | 'gone' | 'unknown' {
  const pid = Number(labels[LABELS.ownerPid]);
  if (!Number.isSafeInteger(pid) || pid <= 0 || labels[LABELS.ownerHost] !== self.host) return 'unknown';
  // Same host name, another boot: the machine restarted, so every process of the old boot is gone.
  if (labels[LABELS.ownerBoot] !== self.boot) return 'gone';
  if (pid === self.pid) return labels[LABELS.ownerStart] === self.start ? 'alive' : 'gone';
  const start = processStart(pid);
  if (start === 'zombie') return 'gone';
  if (start !== undefined) {
    const recorded = labels[LABELS.ownerStart];
    return recorded === undefined || recorded === '' || recorded === start ? 'alive' : 'gone';
  }
  return processExists(pid) ? 'alive' : 'gone';
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    // No procfs (macOS): the boot time, rounded so the jitter of uptime() does not change it.
    return `boot-${Math.round((Date.now() / 1000 - uptime()) / 60)}`;
  }
}

/**
 * Field 22 of /proc/PID/stat: start time in clock ticks since boot. `undefined` when it cannot be
 * read; `zombie` for a process that has exited and waits to be reaped, which is as gone as an owner gets.
 */
function processStart(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces; count fields after its last ")".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[0] === 'Z' ? 'zombie' : fields[19];
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
