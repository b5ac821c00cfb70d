import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { messageOf } from '@hookline/core/plugin';

/** Where per-hook cgroups can be made, or why they cannot. */
export type CgroupSupport =
  { readonly usable: true; readonly parent: string } | { readonly usable: false; readonly reason: string };

/** One hook's cgroup: its directory, and what it found once the hook ended. */
export interface HookCgroup {
  /** `cgroup.procs` of the cgroup: a process that writes its pid there moves in with its future children. */
  readonly procs: string;
  /** Ends what is left, reads the counters, removes the cgroup; returns what the hook ran into. */
  close(): string[];
}

const CONTROLLERS = ['pids', 'memory'] as const;

/**
 * Finds a cgroup v2 directory this process may make children with the pids and memory controllers
 * in: its own cgroup, delegated to its user (systemd's `Delegate=yes`, a container's private
 * cgroup namespace). The controllers must be enabled for children, or enableable — which cgroup v2
 * refuses while the cgroup holds processes itself, unless it is the root.
 */
export function findCgroupSupport(): CgroupSupport {
  let mount: string | undefined;
  let own: string | undefined;
  try {
    mount = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find((fields) => fields[fields.indexOf('-') + 1] === 'cgroup2')?.[4];
    own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('0::'))
      ?.slice(3);
  } catch (error) {
    return { usable: false, reason: `cannot read this process's cgroup (${messageOf(error)})` };
  }
  if (mount === undefined || own === undefined) return { usable: false, reason: 'the host has no cgroup v2 hierarchy' };
  const parent = join(mount, own);
  try {
    const available = readFileSync(join(parent, 'cgroup.controllers'), 'utf8').split(/\s+/);
    const missing = CONTROLLERS.filter((controller) => !available.includes(controller));
    if (missing.length > 0)
      return {
        usable: false,
        reason: `the cgroup v2 controllers ${missing.join(' and ')} are not delegated to ${parent}`,
      };
    const enabled = readFileSync(join(parent, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    const off = CONTROLLERS.filter((controller) => !enabled.includes(controller));
    if (off.length > 0)
      writeFileSync(join(parent, 'cgroup.subtree_control'), off.map((controller) => `+${controller}`).join(' '));
    const probe = join(parent, `hookline-probe-${process.pid}`);
    mkdirSync(probe);
    rmdirSync(probe);
    return { usable: true, parent };
  } catch (error) {
    return {
      usable: false,
      reason: `cannot make child cgroups with the pids and memory controllers under ${parent} (${messageOf(error)})`,
    };
  }
}

let made = 0;

/** Makes one hook's cgroup under `parent` with its limits set. Throws when the kernel refuses. */
export function openHookCgroup(
  parent: string,
  limits: { readonly pids: number; readonly memoryBytes: number },
): HookCgroup {
  const directory = join(parent, `hookline-${process.pid}-${++made}`);
  mkdirSync(directory);
  try {
    writeFileSync(join(directory, 'pids.max'), String(limits.pids));
    writeFileSync(join(directory, 'memory.max'), String(limits.memoryBytes));
    try {
      writeFileSync(join(directory, 'memory.swap.max'), '0');
    } catch {
      // No swap accounting on this host: memory.max alone still holds.
    }
  } catch (error) {
    rmdirSync(directory);
    throw error;
  }
  return {
    procs: join(directory, 'cgroup.procs'),
    close() {
      const found: string[] = [];
      if (counter(directory, 'pids.events', 'max') > 0)
        found.push(`the hook reached the sandbox's limit of ${limits.pids} processes (pids); forks beyond it failed`);
      if (counter(directory, 'memory.events', 'oom_kill') > 0)
        found.push(
          `the hook exceeded the sandbox's memory limit of ${Math.round(limits.memoryBytes / 1024 / 1024)} MiB; the kernel killed a process of it`,
        );
      try {
        writeFileSync(join(directory, 'cgroup.kill'), '1');
      } catch {
        // Before Linux 5.14 there is no cgroup.kill; the pid namespace's end has killed everything anyway.
      }
      removeWhenEmpty(directory);
      return found;
    },
  };
}

function counter(directory: string, file: string, name: string): number {
  try {
    const line = readFileSync(join(directory, file), 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith(`${name} `));
    return line === undefined ? 0 : Number(line.slice(name.length + 1));
  } catch {
    return 0;
  }
}

// A cgroup can be removed only once its last process is gone, which takes the kernel a moment after a kill.
function removeWhenEmpty(directory: string, attempt = 0): void {
  try {
    rmdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EBUSY' && attempt < 20)
      setTimeout(() => removeWhenEmpty(directory, attempt + 1), 50).unref();
  }
}
