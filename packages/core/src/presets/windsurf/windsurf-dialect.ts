import type { ConfigDialect } from '../../config/config-dialect.ts';
import { claudeFormDialect } from '../claude-form-dialect.ts';

/**
 * Windsurf's `hooks.json` form (Cascade's hooks reference): `{"hooks": {"pre_run_command": [{"command":
 * "./guard.sh", "show_output": true}]}}` — a flat list of hooks per event. Each entry is read as a
 * matcher group of one command hook in Claude Code's form; `show_output` only decides what Windsurf's
 * UI shows and is dropped; `working_directory` and other keys stay as written (and are checked).
 */
export const windsurfDialect: ConfigDialect = claudeFormDialect((entry) => {
  const { show_output: _shown, ...hook } = entry;
  return { hooks: [{ type: 'command', ...hook }] };
});
