import { cliSessionKey } from './cli-session-key.ts';

/**
 * What `hookline emit` (and `explain`) fill in, per preset, when the context lacks a field the
 * preset requires, so that `hookline emit <event>` works bare. A required field without a default
 * here is a usage error that says which `--set` to add.
 *
 * - `arc`: `run_id` = `cli-<time>-<hex>` (each invocation its own sandbox session), `workflow_name` = "cli".
 * - `agent` and `claude`: `session_id` = `cli-<time>-<hex>`.
 * - `task`: nothing — `task` names a real task of the host, and its hooks log under
 *   `runs/<task>/hooks/`; an invented one would scatter logs no one looks for.
 *
 * `cwd` is never filled: without it hooks run in the CLI's working directory anyway (host and local
 * sandboxes), and a host path would be wrong inside a docker sandbox. `hookline run` fills nothing.
 */
export const PRESET_CONTEXT_DEFAULTS: Readonly<Record<string, Readonly<Record<string, () => string>>>> = {
  arc: { run_id: cliSessionKey, workflow_name: () => 'cli' },
  agent: { session_id: cliSessionKey },
  claude: { session_id: cliSessionKey },
  task: {},
};
