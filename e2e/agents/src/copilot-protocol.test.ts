import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agentRequired, type AgentProject } from './support/agent-project.ts';
import { copilotProblem, copilotProject, runCopilot } from './support/copilot.ts';
import { copilotFollowUp, startCopilotModel } from './support/copilot-model.ts';
import type { MockModel } from './support/mock-model.ts';
import { rowHook, rowOutcome, type ProtocolRow } from './support/protocol-row.ts';

// GitHub Copilot CLI's hook protocol as the real binary (`@github/copilot` 1.0.102) keeps it, one fact
// per row, with plain hook scripts in its own .github/hooks/*.json: the facts docs/agents/copilot.md
// lists and the bridge relies on, its fail-open traps included.

const answer = (fields: Record<string, unknown>) => `echo '${JSON.stringify(fields)}'`;
const ROWS: readonly ProtocolRow[] = [
  {
    fact: 'permissionDecision "deny" with a reason refuses the call; the model gets the reason',
    event: 'preToolUse',
    script: answer({ permissionDecision: 'deny', permissionDecisionReason: 'json deny reason' }),
    ran: false,
    modelSees: 'Denied by preToolUse hook: json deny reason',
  },
  {
    fact: 'permissionDecision "deny" without a reason refuses the call too',
    event: 'preToolUse',
    script: answer({ permissionDecision: 'deny' }),
    ran: false,
    modelSees: 'Denied by preToolUse hook: No reason provided',
  },
  {
    fact: 'permissionDecision "ask" in prompt mode, which cannot ask, refuses the call with the reason',
    event: 'preToolUse',
    script: answer({ permissionDecision: 'ask', permissionDecisionReason: 'ask reason' }),
    ran: false,
    modelSees: 'unable to ask user for confirmation): ask reason',
  },
  {
    fact: 'permissionDecision "allow" with modifiedArgs rewrites the call',
    event: 'preToolUse',
    script: answer({ permissionDecision: 'allow', modifiedArgs: { command: 'touch rewritten', description: 'r' } }),
    ran: 'rewritten',
  },
  {
    fact: 'exit 2 refuses the call; its stderr does not reach the model',
    event: 'preToolUse',
    script: `echo 'STDERR-REASON' >&2; exit 2`,
    ran: false,
    modelSees: 'Denied by preToolUse hook: hook exited with code 2',
  },
  {
    fact: 'exit 1 refuses the call (the hook errored)',
    event: 'preToolUse',
    script: `echo 'oops' >&2; exit 1`,
    ran: false,
    modelSees: '(hook errored)',
  },
  {
    fact: 'plain text on stdout at exit 0 runs the tool (fail-open)',
    event: 'preToolUse',
    script: 'echo deny',
    ran: true,
  },
  {
    fact: 'a hook past its timeoutSec runs the tool (fail-open)',
    event: 'preToolUse',
    script: `sleep 4; ${answer({ permissionDecision: 'deny', permissionDecisionReason: 'late' })}`,
    timeout: 1,
    ran: true,
  },
  {
    fact: "postToolUse additionalContext reaches the model with the tool's result",
    event: 'postToolUse',
    script: answer({ additionalContext: 'AFTER-CONTEXT' }),
    ran: true,
    modelSees: 'Additional guidance from postToolUse hooks:\nAFTER-CONTEXT',
  },
];

const required = agentRequired('copilot');
const problem = copilotProblem();
if (problem !== undefined && !required)
  console.warn(`[copilot-protocol.test.ts] Copilot cannot run on this platform, so its tests are skipped: ${problem}`);

describe.runIf(problem === undefined || required)("GitHub Copilot CLI's hook protocol, measured", () => {
  let model: MockModel;
  const projects: AgentProject[] = [];
  let runs = 0;

  beforeAll(async () => {
    if (problem !== undefined) throw new Error(`Copilot is required here (CI=true) but cannot run: ${problem}`);
    model = await startCopilotModel();
  });
  afterAll(async () => {
    await model?.close();
    for (const project of projects) project.remove();
  });

  // A project whose .github/hooks/rows.json runs `bash` lines (each given the project's folder) for events.
  function withHooks(hooks: (project: AgentProject) => Record<string, string>, timeout?: number): AgentProject {
    const project = copilotProject(model.url, {});
    projects.push(project);
    const entries = Object.fromEntries(
      Object.entries(hooks(project)).map(([event, bash]) => [
        event,
        [{ type: 'command', bash, ...(timeout === undefined ? {} : { timeoutSec: timeout }) }],
      ]),
    );
    mkdirSync(join(project.dir, '.github/hooks'), { recursive: true });
    writeFileSync(join(project.dir, '.github/hooks/rows.json'), JSON.stringify({ version: 1, hooks: entries }));
    return project;
  }

  test.concurrent.each(ROWS.map((row, index) => ({ ...row, index })))('$fact', async (row) => {
    const project = withHooks((target) => ({ [row.event]: rowHook(target, row) }), row.timeout);
    const id = `copilot-row-${row.index}`;
    await runCopilot(project, `Please RUN#${id}<<touch marker>>`);
    const outcome = rowOutcome(project);
    expect(outcome.ran).toBe(row.ran);
    // The payload names no event; the shell tool is `bash`, its arguments an object.
    expect(outcome.payload).toEqual({
      sessionId: expect.any(String),
      timestamp: expect.any(Number),
      cwd: project.dir,
      toolName: 'bash',
      toolArgs: { command: 'touch marker', description: 'scenario' },
      ...(row.event === 'postToolUse' ? { toolResult: expect.objectContaining({ resultType: 'success' }) } : {}),
    });
    if (row.modelSees !== undefined)
      expect(copilotFollowUp(model.requests(id).at(-1)!).tools.join('\n')).toContain(row.modelSees);
  });

  test.concurrent('userPromptSubmitted decision "block" refuses the prompt: no model request, exit 1', async () => {
    const project = withHooks(() => ({
      userPromptSubmitted: answer({ decision: 'block', reason: 'PROMPT-BLOCKED' }),
    }));
    const id = `copilot-prompt-${++runs}`;
    const run = await runCopilot(project, `Please RUN#${id}<<touch marker>>`);
    expect(run.exitCode).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain('PROMPT-BLOCKED');
    expect(model.requests(id)).toHaveLength(0);
    expect(existsSync(join(project.dir, 'marker'))).toBe(false);
  });

  test.concurrent(
    'userPromptSubmitted and sessionStart additionalContext reach the model as user-message text',
    async () => {
      const project = withHooks(() => ({
        userPromptSubmitted: answer({ additionalContext: 'PROMPT-CONTEXT' }),
        sessionStart: answer({ additionalContext: 'START-CONTEXT' }),
      }));
      const id = `copilot-context-${++runs}`;
      await runCopilot(project, `Please RUN#${id}<<touch marker>>`);
      const user = copilotFollowUp(model.requests(id).at(-1)!).user.join('\n');
      expect(user).toContain('<system_reminder>\nPROMPT-CONTEXT\n</system_reminder>');
      expect(user).toContain('START-CONTEXT');
    },
  );

  test.concurrent('agentStop decision "block" goes on with the reason as the next user message', async () => {
    const project = withHooks((target) => ({
      agentStop: `f=${JSON.stringify(join(target.dir, 'stopped'))}; [ -e "$f" ] || { touch "$f"; ${answer({ decision: 'block', reason: 'STOP-CONTINUE' })}; }`,
    }));
    const id = `copilot-stop-${++runs}`;
    await runCopilot(project, `Please RUN#${id}<<touch marker>>`);
    const requests = model.requests(id);
    expect(requests).toHaveLength(3);
    expect(copilotFollowUp(requests.at(-1)!).user.join('\n')).toContain('STOP-CONTINUE');
  });
});
