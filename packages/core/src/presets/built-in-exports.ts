// The public names of the built-in presets and their parts, for hosts that use one directly.
export { AGENT_CONTEXT_VARIABLE_LIMIT, agentPreset } from './agent/agent-preset.ts';
export { CANONICAL_TOOLS, type CanonicalTool } from './agent/canonical-tools.ts';
export { arcPreset } from './arc/arc-preset.ts';
export { claudeMatcher } from './claude/claude-matcher.ts';
export { claudePreset } from './claude/claude-preset.ts';
export { codexPreset } from './codex/codex-preset.ts';
export { copilotPreset } from './copilot/copilot-preset.ts';
export { cursorPreset } from './cursor/cursor-preset.ts';
export { geminiPreset } from './gemini/gemini-preset.ts';
export { readClaudeAnswer } from './claude/claude-answer.ts';
export { writeClaudeAnswer } from './claude/claude-wire-answer.ts';
export { taskHookName } from './task/task-dialect.ts';
export { taskPreset } from './task/task-preset.ts';
export { windsurfPreset } from './windsurf/windsurf-preset.ts';
