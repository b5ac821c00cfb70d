// `@hookline/runner-script/script-host`: what a program that runs script hooks from a Node process
// started without `--no-node-snapshot` (the hookline CLI) needs — where script hooks run, the
// resident script host that runs them, and the restart with the flags when no host can serve. Its
// own entry, so a program that runs no script hook never loads it.
export { NodeFlagsRequired } from '../node-flags/node-flags-required.ts';
export type { ScriptHostBuild } from './open-script-host.ts';
export {
  SCRIPT_NODE_FLAGS,
  scriptHookProcess,
  scriptHostDisabled,
  withScriptHost,
  type ScriptHookProcess,
  type ScriptHostOptions,
} from './use-script-host.ts';
