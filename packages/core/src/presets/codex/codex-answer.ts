import { readClaudeAnswer } from '../claude/claude-answer.ts';
import type { PresetAnswer } from '../preset.ts';

/**
 * Reads Codex's JSON hook output. Codex took Claude Code's output format (`hookSpecificOutput`,
 * `permissionDecision`, `decision: "block"`, `additionalContext`) but refuses part of it, and a
 * refused answer lets the tool run (measured with `@openai/codex` 0.171): so each refused field is a
 * problem here — the hook failed, and its `on_error` decides — never a silent approval or denial.
 */
export function readCodexAnswer(value: unknown, event: string): PresetAnswer | undefined {
  const answer = readClaudeAnswer(value, event);
  if (answer === undefined || typeof value !== 'object' || value === null) return answer;
  const record = value as Record<string, unknown>;
  const specific = (record['hookSpecificOutput'] ?? {}) as Record<string, unknown>;
  const problems = [...(answer.problems ?? [])];
  const refuse = (what: string): void => {
    problems.push(`Codex refuses ${what} in a ${event} answer (it then runs the tool)`);
  };
  if (event === 'PreToolUse') {
    const permission = specific['permissionDecision'];
    if (permission === 'ask') refuse('permissionDecision "ask"');
    if (record['decision'] === 'approve') refuse('decision "approve"');
    if (record['continue'] === false) refuse('continue: false');
    if (specific['updatedInput'] !== undefined && permission !== 'allow')
      refuse('updatedInput without permissionDecision "allow"');
    const reason = specific['permissionDecisionReason'];
    if (permission === 'deny' && (typeof reason !== 'string' || reason.trim() === ''))
      refuse('permissionDecision "deny" without a non-empty permissionDecisionReason');
  }
  if (event === 'PostToolUse' && record['reason'] !== undefined && record['decision'] === undefined)
    refuse('a reason without decision "block"');
  return problems.length === 0 ? answer : { ...answer, problems };
}
