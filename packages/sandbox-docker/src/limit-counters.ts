/**
 * How often the container met its limits, from the cgroup files the container sees. `undefined`
 * where they cannot be read (an engine that hides the cgroup filesystem).
 */
export interface LimitCounters {
  /** Processes the kernel's OOM killer ended in the container. */
  readonly oomKills: number | undefined;
  /** Forks refused by the pids limit. */
  readonly pidsLimitHits: number | undefined;
}

/**
 * Shell function `hookline_counters` of the container agent: leaves the OOM-kill count in `_oom`
 * and the refused-fork count in `_pids` (`-` when unreadable). cgroup v1 has them in
 * `memory/memory.oom_control` and `pids/pids.events`, v2 in `memory.events` and `pids.events`.
 * Forks nothing, so it answers in a container at its pids limit; no dmesg, which needs privileges.
 */
export const COUNTERS_FUNCTION = `
hookline_counters() {
  _oom=-; _pids=-
  for _cf in /sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events; do
    { while read -r _ck _cv; do [ "$_ck" = oom_kill ] && _oom=$_cv; done <"$_cf"; } 2>/dev/null
  done
  for _cf in /sys/fs/cgroup/pids/pids.events /sys/fs/cgroup/pids.events; do
    { while read -r _ck _cv; do [ "$_ck" = max ] && _pids=$_cv; done <"$_cf"; } 2>/dev/null
  done
}
`;

/** Reads the agent's answer `OOM PIDS` (each a number or `-`). */
export function parseLimitCounters(answer: string): LimitCounters {
  const [oom, pids] = answer.trim().split(/\s+/);
  const count = (value: string | undefined): number | undefined => {
    const parsed = Number(value);
    return value !== undefined && value !== '-' && Number.isSafeInteger(parsed) ? parsed : undefined;
  };
  return { oomKills: count(oom), pidsLimitHits: count(pids) };
}
