export {
  commandOptions,
  DEFAULT_MAX_OUTPUT_BYTES,
  MAX_OUTPUT_BYTES_LIMIT,
  type CommandHookOptions,
  type CommandOptionsEntries,
} from './command-keys.ts';
export { commandLogPath, DEFAULT_LOG_ROOT, safePathSegment } from './command-log.ts';
// The cut of veto reasons is core's, applied to every runner; re-exported where it used to live.
export { MAX_REASON_CHARACTERS } from '@hookline/core/plugin';
export { commandRunner, type CommandRunnerSettings } from './command-runner.ts';
export { CommandStartError } from './command-start-error.ts';
export { DEFAULT_KILL_GRACE_MS, DEFAULT_STDERR_TAIL_BYTES } from './defaults.ts';
export { createHostSession, type HostSessionSettings } from './host-session.ts';
export { localSandbox, type LocalSandboxSettings } from './local-sandbox.ts';
export { createProcessSession, type ProcessLaunch, type ProcessSessionSettings } from './process-session.ts';
export { signalGroup, terminateGroup } from './process-group.ts';
export { runProcess, type ProcessSettings } from './run-process.ts';
export { useResidentSpawner } from './resident-spawner-switch.ts';
