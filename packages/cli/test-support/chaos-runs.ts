// The checker of the worker chaos tests. Each run of the chaos hook appends to runs.log
// "start TASK PID NANOSECONDS" and, unless it was killed, "end TASK PID NANOSECONDS"; before starting
// it appends "alive TASK PID" to overlaps.log for every earlier run of its task whose process is still
// running. From those two logs the checker tells what was lost, what ran twice and what overlapped.

/**
 * The chaos hook's shell command, for `task` events: refuses nothing, only logs. `$ARC_TASK` is the
 * task; each run notes its pid in pids/TASK so that a later run can see whether an earlier one lives on.
 */
export const CHAOS_HOOK = [
  'mkdir -p pids',
  'f=pids/$ARC_TASK',
  'for p in $(cat $f 2>/dev/null); do s=; read -r s 2>/dev/null < /proc/$p/stat || continue; case "$s" in *") Z "*) ;; *) echo "alive $ARC_TASK $p" >> overlaps.log;; esac; done',
  'echo $$ >> $f',
  'echo "start $ARC_TASK $$ $(date +%s%N)" >> runs.log',
  'sleep 0.02',
  'echo "end $ARC_TASK $$ $(date +%s%N)" >> runs.log',
].join('; ');

/** What the logs prove. */
export interface ChaosReport {
  /** Tasks no run of which ended. */
  readonly lost: readonly string[];
  /** Runs beyond the first, over all tasks (at least once allows them; they are counted). */
  readonly duplicates: number;
  /** Two runs of one task at the same time: "TASK PID PID" for logged intervals, "alive TASK PID" otherwise. */
  readonly overlaps: readonly string[];
}

interface Run {
  readonly pid: string;
  readonly start: bigint;
  end?: bigint;
}

/** Checks `runsLog` and `overlapsLog` (text of the two files, empty when missing) for `tasks`. */
export function checkChaosRuns(tasks: readonly string[], runsLog: string, overlapsLog: string): ChaosReport {
  const runs = new Map<string, Run[]>();
  for (const line of runsLog.split('\n')) {
    const [kind, task, pid, time] = line.split(' ');
    if (task === undefined || pid === undefined || time === undefined) continue;
    const list = runs.get(task) ?? [];
    runs.set(task, list);
    if (kind === 'start') list.push({ pid, start: BigInt(time) });
    else if (kind === 'end') {
      const run = list.find((candidate) => candidate.pid === pid && candidate.end === undefined);
      if (run !== undefined) run.end = BigInt(time);
    }
  }
  const overlaps = overlapsLog.split('\n').filter((line) => line.startsWith('alive '));
  for (const [task, list] of runs) {
    const ended = list
      .filter((run) => run.end !== undefined)
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    for (let index = 1; index < ended.length; index++) {
      const [before, after] = [ended[index - 1]!, ended[index]!];
      if (after.start < before.end!) overlaps.push(`${task} ${before.pid} ${after.pid}`);
    }
  }
  return {
    lost: tasks.filter((task) => !(runs.get(task) ?? []).some((run) => run.end !== undefined)),
    duplicates: [...runs.values()].reduce((sum, list) => sum + Math.max(0, list.length - 1), 0),
    overlaps,
  };
}
