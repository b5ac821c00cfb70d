// CPU time of processes as Linux accounts it (/proc/<pid>/stat), for benchmarks that must say where
// a run's time went: utime + stime of a process, optionally with its reaped children's (cutime + cstime).
import { readdirSync, readFileSync } from 'node:fs';

// Linux reports these fields in clock ticks, 100 a second on every mainstream kernel configuration.
const TICKS_PER_SECOND = 100;

/** The CPU milliseconds `pid` used; with `reaped`, plus those of its children that ended and were waited for. */
export function processCpuMs(pid: number, reaped = false): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may contain spaces) start at the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]));
    return ((utime! + stime! + (reaped ? cutime! + cstime! : 0)) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0; // gone meanwhile
  }
}

/** The CPU milliseconds of `pid`, its reaped children and its live children (a server and its backends). */
export function processTreeCpuMs(pid: number): number {
  let total = processCpuMs(pid, true);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) total += processCpuMs(Number(name), true);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}
