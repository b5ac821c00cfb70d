import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import process from 'node:process';

/**
 * Names the place whose process ids this process can check: the host name, the boot (a pid from
 * before a reboot means nothing now) and the pid namespace (containers on one kernel share the boot
 * but not their pids). Two processes with the same identity can see each other's pids.
 */
export function localHostIdentity(): string {
  return [hostname(), readOr('/proc/sys/kernel/random/boot_id'), linkOr('/proc/self/ns/pid')].filter((part) => part !== '').join('/');
}

/** Whether a process of this host is running. A pid we may not signal (EPERM) belongs to a live process. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

function linkOr(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}
