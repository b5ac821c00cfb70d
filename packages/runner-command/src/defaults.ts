/** SIGTERM to the process group, then SIGKILL after this grace. */
export const DEFAULT_KILL_GRACE_MS = 2_000;

/**
 * How much of stderr (its last bytes) a report carries when a hook exits non-zero or is killed:
 * enough for an error message or a stack trace's end, small enough for a JSON outcome.
 */
export const DEFAULT_STDERR_TAIL_BYTES = 4_096;
