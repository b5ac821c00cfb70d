import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { isRunning } from './processes.ts';
import type { Scratch } from './run-cli.ts';

// Helpers of the script host's tests: where a test's host lives, who started, and how busy it is.

/** One Node process that started with the recording preload: its pid, parent, flags and script. */
export interface Start {
  readonly pid: number;
  readonly ppid: number;
  readonly execArgv: readonly string[];
  readonly script: string;
}

/**
 * Writes a preload into the scratch folder that appends a line per Node process it runs in to
 * `starts.jsonl`, and returns the Node options that load it. The CLI passes its own flags on to the
 * host it starts and to a restarted CLI, so both record themselves too.
 */
export function recordStarts(scratch: Scratch): { nodeOptions: string[]; starts(): Start[]; clear(): void } {
  const log = join(scratch.path, 'starts.jsonl');
  const preload = scratch.write(
    'record-start.mjs',
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, JSON.stringify({ pid: process.pid, ppid: process.ppid, execArgv: process.execArgv, script: process.argv[1] ?? '' }) + '\\n');\n`,
  );
  return {
    nodeOptions: ['--import', preload],
    starts: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Start)
        : [],
    clear: () => writeFileSync(log, ''),
  };
}

/** The file names in the host folder ending with `suffix` (`.sock`, `.pid`, `.log`). */
export function hostFilesIn(folder: string, suffix: string): string[] {
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name.endsWith(suffix))
        .map((name) => join(folder, name))
    : [];
}

/** The pid in the folder's only pid file, if there is one. */
export function hostPid(folder: string): number | undefined {
  const files = hostFilesIn(folder, '.pid');
  if (files.length !== 1) return undefined;
  return Number(readFileSync(files[0]!, 'utf8').trim());
}

/** CPU time of a process so far, in clock ticks (user + system), from /proc. */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Ends every host a test's folder names (by its pid file), so none outlives the test. */
export function stopHosts(folder: string, pids: Iterable<number> = []): void {
  const all = new Set(pids);
  for (const file of hostFilesIn(folder, '.pid')) all.add(Number(readFileSync(file, 'utf8').trim()));
  for (const pid of all) {
    if (!Number.isInteger(pid) || !isRunning(pid)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}
