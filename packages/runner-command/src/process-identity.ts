import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { hostname, uptime } from 'node:os';
import process from 'node:process';

/**
 * One process, told apart from any later process that gets its id: the pid and the start time the
 * kernel records for it (field 22 of `/proc/PID/stat`, clock ticks since boot). `start` is empty
 * where there is no procfs (macOS); the pid alone then identifies it.
 */
export interface ProcessIdentity {
  readonly pid: number;
  readonly start: string;
}

/** What `/proc/PID/stat` says about a process, parsed once. */
export interface ProcessStat {
  /** One letter: `R`, `S`, `D`, `Z` (exited, not reaped yet), … */
  readonly state: string;
  /** The process group it belongs to. */
  readonly group: number;
  /** The session it belongs to. */
  readonly session: number;
  readonly start: string;
}

/**
 * Reads `/proc/PID/stat`; undefined when the process does not exist or there is no procfs. The
 * command name (field 2) is in parentheses and may hold spaces and parentheses itself, so fields are
 * counted from its last `)`.
 */
export function readProcessStat(pid: number): ProcessStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', group: Number(fields[2]), session: Number(fields[3]), start: fields[19] ?? '' };
}

/** The identity of a running process (this one by default); undefined when it is not running. */
export function processIdentity(pid: number = process.pid): ProcessIdentity | undefined {
  const stat = readProcessStat(pid);
  if (stat !== undefined) return stat.state === 'Z' ? undefined : { pid, start: stat.start };
  return pidExists(pid) ? { pid, start: '' } : undefined;
}

/**
 * Whether the process `identity` names still runs: its pid exists, is not a zombie, and — where the
 * start time is known on both sides — started when it did (a reused pid is another process).
 */
export function isSameProcess(identity: ProcessIdentity): boolean {
  const now = processIdentity(identity.pid);
  if (now === undefined) return false;
  return identity.start === '' || now.start === '' || now.start === identity.start;
}

/**
 * Names the place whose process ids this process can check: the host name, the boot (a pid from
 * before a reboot means nothing now) and the pid namespace (containers on one kernel share the boot
 * but not their pids). Two processes with the same identity can see each other's pids.
 */
export function localHostIdentity(): string {
  return [hostname(), bootId(), linkOr('/proc/self/ns/pid')].filter((part) => part !== '').join('/');
}

/** The current boot: the kernel's boot id, or where there is none, the boot time to the minute. */
export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    // No procfs (macOS): the boot time, rounded so the jitter of uptime() does not change it.
    return `boot-${Math.round((Date.now() / 1000 - uptime()) / 60)}`;
  }
}

/**
 * Ends what is left of the process group led by `leader` (a hook's process group, recorded while it
 * ran) with SIGKILL and waits, up to `waitMs`, until no member but zombies is left. Never signals a
 * group that is not that one: when a process with the leader's pid runs but started at another time,
 * the pid was reused — the old group is gone, since the kernel reuses no pid still naming a group —
 * and nothing is sent. Resolves to whether the group is gone.
 */
export async function endProcessGroup(leader: ProcessIdentity, waitMs = 5_000): Promise<boolean> {
  if (leader.pid <= 1 || leader.pid === process.pid) return true;
  const deadline = performance.now() + waitMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    if (!groupRuns(leader)) return true;
    try {
      process.kill(-leader.pid, 'SIGKILL');
    } catch {
      // ESRCH: gone meanwhile; EPERM: not ours to end — the wait below says whether it went.
    }
    if (performance.now() >= deadline) return !groupRuns(leader);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Ends the recorded process groups that run on `host` (a journal's name for this machine; groups of
 * other hosts cannot be reached from here), all at once; resolves when they are gone or the wait ran out.
 */
export async function endProcessGroups(groups: ReadonlyArray<ProcessIdentity & { readonly host: string }>, host: string, waitMs?: number): Promise<void> {
  await Promise.all(groups.filter((group) => group.host === host && Number.isSafeInteger(group.pid)).map((group) => endProcessGroup(group, waitMs)));
}

// Whether a live (non-zombie) process of the leader's group is left. The leader itself, when it
// runs, must be the one recorded; when it is gone, other members may still hold the group's id.
function groupRuns(leader: ProcessIdentity): boolean {
  const stat = readProcessStat(leader.pid);
  if (stat !== undefined) {
    if (leader.start !== '' && stat.start !== leader.start) return false;
    if (stat.state !== 'Z' && stat.group === leader.pid) return true;
  } else if (!existsProcfs()) {
    return groupExists(leader.pid);
  }
  for (const name of listProcesses()) {
    const member = readProcessStat(Number(name));
    if (member !== undefined && member.group === leader.pid && member.state !== 'Z') return true;
  }
  return false;
}

function listProcesses(): string[] {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
}

let procfs: boolean | undefined;
function existsProcfs(): boolean {
  return (procfs ??= readProcessStat(process.pid) !== undefined);
}

function groupExists(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// A pid we may not signal (EPERM) belongs to a live process.
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function linkOr(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}
