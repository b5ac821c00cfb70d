export { scriptRunner, type ScriptRunner, type ScriptRunnerSettings } from './script-runner.ts';
export { SCRIPT_RUNNER_NAME } from './script-runner-name.ts';
export { scriptOptions, type ScriptHookOptions } from './script-keys.ts';
export { checkScriptHook } from './check-script-hook.ts';
export { scriptSourceRules } from './script-source-rules.ts';
export { findSyntaxError, type ScriptSyntaxError } from './find-syntax-error.ts';
export { nodeSnapshotDisabled } from './node-snapshot.ts';
export type { PoolStats } from './create-pool.ts';
export {
  DEFAULT_MEMORY_LIMIT_MB,
  DEFAULT_POOL_SIZE,
  DEFAULT_SCRIPT_TIMEOUT_MS,
  MAX_MEMORY_LIMIT_MB,
  MIN_MEMORY_LIMIT_MB,
} from './defaults.ts';
