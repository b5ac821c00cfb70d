import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agentRequired, binaryProblem, type AgentProject } from './support/agent-project.ts';
import { CODEX, codexProject, runCodex } from './support/codex.ts';
import { codexFollowUp, startCodexModel } from './support/codex-model.ts';
import type { MockModel } from './support/mock-model.ts';
import { rowHook, rowOutcome, type ProtocolRow } from './support/protocol-row.ts';

// Codex's hook protocol as the real binary keeps it, one fact per row, with plain hook scripts in its
// own .codex/hooks.json: the facts docs/agents/codex.md lists and the bridge relies on, its fail-open
// traps included.

const answer = (specific: Record<string, unknown>) =>
  `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } })}'`;
const ROWS: readonly ProtocolRow[] = [
  {
    fact: 'permissionDecision "deny" with a reason refuses the call; the reason is its output',
    event: 'PreToolUse',
    script: answer({ permissionDecision: 'deny', permissionDecisionReason: 'json deny reason' }),
    ran: false,
    modelSees: 'json deny reason',
  },
  {
    fact: 'permissionDecision "deny" without a reason runs the tool (fail-open)',
    event: 'PreToolUse',
    script: answer({ permissionDecision: 'deny' }),
    ran: true,
  },
  {
    fact: 'permissionDecision "ask" is refused and runs the tool (fail-open)',
    event: 'PreToolUse',
    script: answer({ permissionDecision: 'ask', permissionDecisionReason: 'r' }),
    ran: true,
  },
  {
    fact: 'permissionDecision "allow" with updatedInput rewrites the call',
    event: 'PreToolUse',
    script: answer({
      permissionDecision: 'allow',
      permissionDecisionReason: 'r',
      updatedInput: { command: 'touch rewritten' },
    }),
    ran: 'rewritten',
  },
  {
    fact: 'decision "block" with a reason refuses the call',
    event: 'PreToolUse',
    script: `echo '{"decision":"block","reason":"top block reason"}'`,
    ran: false,
    modelSees: 'top block reason',
  },
  {
    fact: 'exit 2 with stderr refuses the call with stderr as the reason',
    event: 'PreToolUse',
    script: `echo 'stderr reason' >&2; exit 2`,
    ran: false,
    modelSees: 'stderr reason',
  },
  { fact: 'exit 1 runs the tool (fail-open)', event: 'PreToolUse', script: `echo 'oops' >&2; exit 1`, ran: true },
  {
    fact: 'plain text on stdout at exit 0 runs the tool (fail-open)',
    event: 'PreToolUse',
    script: 'echo not json',
    ran: true,
  },
  {
    fact: 'a hook past its timeout (seconds) runs the tool (fail-open)',
    event: 'PreToolUse',
    script: `sleep 4; ${answer({ permissionDecision: 'deny', permissionDecisionReason: 'late' })}`,
    timeout: 1,
    ran: true,
  },
  {
    fact: 'PostToolUse additionalContext reaches the model as a developer message',
    event: 'PostToolUse',
    script: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"AFTER-CONTEXT"}}'`,
    ran: true,
    modelSees: 'AFTER-CONTEXT',
  },
  {
    fact: 'PostToolUse decision "block" replaces the tool\'s output with the reason',
    event: 'PostToolUse',
    script: `echo '{"decision":"block","reason":"POST-BLOCK-REASON"}'`,
    ran: true,
    modelSees: 'POST-BLOCK-REASON',
  },
];

const required = agentRequired('codex');
const problem = binaryProblem(CODEX);
if (problem !== undefined && !required)
  console.warn(`[codex-protocol.test.ts] Codex cannot run on this platform, so its tests are skipped: ${problem}`);

describe.runIf(problem === undefined || required)("Codex's hook protocol, measured", () => {
  let model: MockModel;
  const projects: AgentProject[] = [];

  beforeAll(async () => {
    if (problem !== undefined) throw new Error(`Codex is required here (CI=true) but cannot run: ${problem}`);
    model = await startCodexModel();
  });
  afterAll(async () => {
    await model?.close();
    for (const project of projects) project.remove();
  });

  test.concurrent.each(ROWS.map((row, index) => ({ ...row, index })))('$fact', async (row) => {
    const project = codexProject(model.url, {});
    projects.push(project);
    const hook = {
      type: 'command',
      command: rowHook(project, row),
      ...(row.timeout === undefined ? {} : { timeout: row.timeout }),
    };
    mkdirSync(join(project.dir, '.codex'));
    writeFileSync(
      join(project.dir, '.codex/hooks.json'),
      JSON.stringify({ hooks: { [row.event]: [{ hooks: [hook] }] } }),
    );
    const id = `codex-row-${row.index}`;
    await runCodex(project, `Please RUN#${id}<<touch marker>>`);
    const outcome = rowOutcome(project);
    expect(outcome.ran).toBe(row.ran);
    // The shell tool (exec_command to the model) reaches hooks as Bash with tool_input.command.
    expect(outcome.payload).toMatchObject({
      hook_event_name: row.event,
      session_id: expect.any(String),
      turn_id: expect.any(String),
      cwd: project.dir,
      tool_name: 'Bash',
      tool_input: { command: 'touch marker' },
    });
    if (row.modelSees !== undefined) {
      const seen = codexFollowUp(model.requests(id).at(-1)!);
      expect([...seen.outputs, ...seen.developer].join('\n')).toContain(row.modelSees);
    }
  });
});
