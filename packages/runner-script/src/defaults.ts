/** A script's isolate may use up to 32 MiB unless the runner or the hook says otherwise. */
export const DEFAULT_MEMORY_LIMIT_MB = 32;

/** A script hook has one second of wall-clock time, awaited promises included. */
export const DEFAULT_SCRIPT_TIMEOUT_MS = 1_000;

/**
 * Isolates kept warm per memory limit. Four lets the engine's non-blocking hooks (eight at a time by
 * default) overlap on a small machine while bounding the worst case at 4 × the memory limit.
 */
export const DEFAULT_POOL_SIZE = 4;

/** isolated-vm refuses isolates under 8 MB; the upper bound keeps one hook from claiming the host's memory. */
export const MIN_MEMORY_LIMIT_MB = 8;

/** See {@link MIN_MEMORY_LIMIT_MB}. */
export const MAX_MEMORY_LIMIT_MB = 2_048;
