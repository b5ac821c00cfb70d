import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { WireAnswer } from '../preset.ts';

/** Cascade's pre-hooks: the events whose exit 2 blocks the action (its hooks reference). */
export const WINDSURF_GUARDS: readonly string[] = [
  'pre_read_code',
  'pre_write_code',
  'pre_run_command',
  'pre_mcp_tool_use',
];

/**
 * The merged outcome of a Windsurf event in the only form Cascade's hooks reference gives: exit 2 with
 * the reason on stderr (which the agent sees) blocks a pre-hook's action; exit 0 lets it go on. Cascade
 * reads no JSON answer, so it can neither ask the user nor take a changed input: on a pre-hook, `ask`
 * and a rewrite are refused with the reason rather than run unchanged. Messages for the user go to
 * stderr at exit 0 (shown when the entry sets `show_output`).
 */
export function writeWindsurfAnswer(outcome: EmitOutcome, event: string): WireAnswer {
  if (WINDSURF_GUARDS.includes(event)) {
    const refusal = refusalOf(outcome);
    if (refusal !== undefined) return { exitCode: 2, stderr: `${refusal}\n` };
  }
  const messages = outcome.system_messages ?? [];
  return { exitCode: 0, ...(messages.length === 0 ? {} : { stderr: `${messages.join('\n')}\n` }) };
}

function refusalOf(outcome: EmitOutcome): string | undefined {
  const reason = nonEmpty(outcome.reason);
  const by = outcome.decided_by === undefined ? '' : ` (hook "${outcome.decided_by}")`;
  if (outcome.decision === 'block') return reason ?? `blocked by Hookline${by}`;
  if (outcome.decision === 'ask')
    return `needs the user's approval, which Windsurf's hooks cannot ask for: ${reason ?? `asked by Hookline${by}`}`;
  if (outcome.updated_input !== undefined)
    return `Windsurf cannot change an action's input; the hooks asked for ${JSON.stringify(outcome.updated_input)}, so the action is refused`;
  return undefined;
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}
