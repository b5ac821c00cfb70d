import { agentPreset } from './agent/agent-preset.ts';
import { arcPreset } from './arc/arc-preset.ts';
import { claudePreset } from './claude/claude-preset.ts';
import { codexPreset } from './codex/codex-preset.ts';
import { copilotPreset } from './copilot/copilot-preset.ts';
import { cursorPreset } from './cursor/cursor-preset.ts';
import { geminiPreset } from './gemini/gemini-preset.ts';
import { PresetRegistry } from './preset-registry.ts';
import { taskPreset } from './task/task-preset.ts';
import { windsurfPreset } from './windsurf/windsurf-preset.ts';

/**
 * The presets this core brings, the first one the default. Each lives in its own folder and is made
 * with `definePreset`, as a plugin's preset is.
 */
export const builtInPresets: PresetRegistry = new PresetRegistry([
  arcPreset,
  taskPreset,
  agentPreset,
  // Before claude: their settings files hold a `hooks` object too, and are told apart by their path.
  geminiPreset,
  codexPreset,
  cursorPreset,
  copilotPreset,
  windsurfPreset,
  claudePreset,
]);
