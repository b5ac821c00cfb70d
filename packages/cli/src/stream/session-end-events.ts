/**
 * The events after which `hookline run` ends a session (the engine's session key, `preset.sessionField`),
 * per preset: nothing of it that needs its sandbox comes later. `task` has none — a task's points
 * come and go over days — so its sessions end when the CLI exits.
 */
export const SESSION_END_EVENTS: Readonly<Record<string, readonly string[]>> = {
  arc: ['run_complete', 'run_failed'],
  agent: ['session_stop'],
  claude: ['SessionEnd'],
  task: [],
};
