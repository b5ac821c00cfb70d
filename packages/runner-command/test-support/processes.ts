import { readdirSync } from 'node:fs';
import { readProcessStat } from '../src/process-identity.ts';

/** One process as /proc describes it. */
export interface ProcessEntry {
  readonly pid: number;
  /** `R`, `S`, `D`, `Z` (zombie), … */
  readonly state: string;
  readonly groupId: number;
  readonly sessionId: number;
}

/** Reads /proc/<pid>/stat; undefined when the process is gone (zombies are still there). */
export function processEntry(pid: number): ProcessEntry | undefined {
  const stat = readProcessStat(pid);
  return stat === undefined ? undefined : { pid, state: stat.state, groupId: stat.group, sessionId: stat.session };
}

/** Whether `pid` is a running process — a zombie (exited, not yet reaped) does not count. */
export function isRunning(pid: number): boolean {
  const entry = processEntry(pid);
  return entry !== undefined && entry.state !== 'Z' && entry.state !== 'X';
}

/**
 * Every running (non-zombie) member of process group `groupId`. Zombies are ignored on purpose: in
 * a container whose init does not reap orphans they linger, but they are dead and hold nothing.
 */
export function runningGroupMembers(groupId: number): ProcessEntry[] {
  const members: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = processEntry(Number(name));
    if (entry !== undefined && entry.groupId === groupId && entry.state !== 'Z' && entry.state !== 'X')
      members.push(entry);
  }
  return members;
}

/** Polls `condition` every 20 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
