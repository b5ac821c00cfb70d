export { ntfyOptions, type NtfyHookOptions } from './ntfy-keys.ts';
export { ntfyRunner, ntfyRunner as default, type NtfyRunnerSettings } from './ntfy-runner.ts';
