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

/** A process group as a journal recorded it: read from a file others may write, so nothing about it is trusted. */
export interface RecordedProcessGroup {
  readonly host?: unknown;
  readonly pid?: unknown;
  readonly start?: unknown;
}

/**
 * Why the recorded group must not be signalled from `host` (this machine's identity), or undefined
 * when its leader is the very process recorded and still leads its group: the recorded host is this
 * one; the pid is an integer above 1 and is neither this process nor its group; the recorded start
 * time is non-empty and equals the live leader's (`/proc/PID/stat`). `'gone'` when the leader no
 * longer runs: there is nothing it is safe to signal (members it left cannot be told from a group
 * that reuses the id). Everything missing, empty or malformed is refused — the check never falls
 * back to the pid alone.
 */
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- 'gone' is named for the reader
export function refusalToSignal(group: RecordedProcessGroup, host: string): string | 'gone' | undefined {
  const { pid, start } = group;
  const named = `process group ${typeof pid === 'number' || typeof pid === 'string' ? JSON.stringify(pid) : String(pid)}`;
  if (typeof host !== 'string' || host === '')
    return `${named} was not signalled: this machine has no identity to compare with the recorded one`;
  if (typeof group.host !== 'string' || group.host === '')
    return `${named} was not signalled: its host is not recorded`;
  if (group.host !== host)
    return `${named} was not signalled: it was recorded on another host (${group.host}), and can only be ended there`;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 1)
    return `${named} was not signalled: its pid is not one a hook's group can have (an integer above 1)`;
  if (pid === process.pid || pid === ownGroup())
    return `${named} was not signalled: it is this Hookline process or its own group`;
  if (typeof start !== 'string' || !/^\d+$/.test(start))
    return `${named} was not signalled: its leader's start time is ${typeof start === 'string' && start === '' ? 'empty' : 'missing or malformed'}, so a process that reuses the pid cannot be told apart`;
  const live = readProcessStat(pid);
  if (live === undefined) return 'gone';
  if (live.start !== start)
    return `${named} was not signalled: pid ${pid} now runs another process (started at ${live.start}, recorded ${start})`;
  if (live.group !== pid) return `${named} was not signalled: pid ${pid} no longer leads a process group`;
  return undefined;
}

/**
 * Ends the process group led by `leader` (a hook's group, recorded while it ran) with SIGKILL and
 * waits, up to `waitMs`, until no member but zombies is left — only when {@link refusalToSignal}
 * finds nothing against it. Resolves to undefined when the group was ended (or was gone), else to
 * why it was not signalled.
 */
export async function endProcessGroup(
  leader: RecordedProcessGroup & { readonly host: string },
  host: string,
  waitMs = 5_000,
): Promise<string | undefined> {
  const refusal = refusalToSignal(leader, host);
  if (refusal === 'gone') return undefined;
  if (refusal !== undefined) return refusal;
  // Checked above: an integer pid above 1 and a start time of digits.
  const identity = { pid: leader.pid as number, start: leader.start as string };
  const deadline = performance.now() + waitMs;
  // The first signal needs the leader verified (above). Later ones reach members still in the group
  // — forked while it was ended — whose id the kernel cannot reuse while they hold it.
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    try {
      process.kill(-identity.pid, 'SIGKILL');
    } catch {
      // ESRCH: gone meanwhile; EPERM: not ours to end — the wait below says whether it went.
    }
    if (!groupRuns(identity)) return undefined;
    if (performance.now() >= deadline)
      return `process group ${identity.pid} was signalled but still runs after ${waitMs} ms`;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Ends the recorded process groups that {@link refusalToSignal} lets through, all at once, and
 * resolves — once they are gone or the wait ran out — to a warning for each group it did not
 * signal (or could not end), for the journal to report.
 */
export async function endProcessGroups(
  groups: readonly RecordedProcessGroup[],
  host: string,
  waitMs?: number,
): Promise<string[]> {
  const results = await Promise.all(
    groups.map((group) =>
      endProcessGroup({ ...group, host: typeof group.host === 'string' ? group.host : '' }, host, waitMs),
    ),
  );
  return results.filter((warning): warning is string => warning !== undefined);
}

// This process's group: a recorded group equal to it would end Hookline itself.
let ownGroupId: number | undefined;
function ownGroup(): number | undefined {
  return (ownGroupId ??= readProcessStat(process.pid)?.group);
}

// Whether a live (non-zombie) process of the leader's group is left. The leader itself, when it
// runs, must be the one recorded; when it is gone, other members may still hold the group's id.
function groupRuns(leader: ProcessIdentity): boolean {
  const stat = readProcessStat(leader.pid);
  if (stat !== undefined) {
    if (leader.start !== '' && stat.start !== leader.start) return false;
    if (stat.state !== 'Z' && stat.group === leader.pid) return true;
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
