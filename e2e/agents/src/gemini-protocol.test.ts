import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agentRequired, binaryProblem, type AgentProject } from './support/agent-project.ts';
import { GEMINI, geminiProject, runGemini } from './support/gemini-cli.ts';
import { geminiToolResults, startGeminiModel } from './support/gemini-model.ts';
import type { MockModel } from './support/mock-model.ts';
import { rowHook, rowOutcome, type ProtocolRow } from './support/protocol-row.ts';

// Gemini CLI's hook protocol as the real binary keeps it, one fact per row, with plain hook scripts in
// its own .gemini/settings.json: the facts docs/agents/gemini-cli.md lists and the bridge relies on,
// its fail-open traps included.

const DENY = `echo '{"decision":"deny","reason":"json deny reason"}'`;
const ROWS: readonly ProtocolRow[] = [
  {
    fact: 'exit 0 with decision "deny" and a reason refuses the call; the reason reaches the model',
    event: 'BeforeTool',
    script: DENY,
    ran: false,
    modelSees: 'json deny reason',
  },
  {
    fact: 'exit 2 with stderr refuses the call with stderr as the reason',
    event: 'BeforeTool',
    script: `echo 'stderr reason' >&2; exit 2`,
    ran: false,
    modelSees: 'stderr reason',
  },
  { fact: 'exit 2 with nothing on stderr runs the tool (fail-open)', event: 'BeforeTool', script: 'exit 2', ran: true },
  { fact: 'exit 1 runs the tool (fail-open)', event: 'BeforeTool', script: `echo 'oops' >&2; exit 1`, ran: true },
  { fact: 'plain text on stdout at exit 0 runs the tool', event: 'BeforeTool', script: 'echo not json', ran: true },
  {
    fact: 'a deny after the entry timeout (milliseconds) is ignored: the tool runs (fail-open)',
    event: 'BeforeTool',
    script: `sleep 4; ${DENY}`,
    timeout: 1000,
    ran: true,
  },
  {
    fact: 'hookSpecificOutput.tool_input replaces the arguments',
    event: 'BeforeTool',
    script: `echo '{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"touch rewritten"}}}'`,
    ran: 'rewritten',
  },
  {
    fact: "AfterTool hookSpecificOutput.additionalContext is appended to the tool's result",
    event: 'AfterTool',
    script: `echo '{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"AFTER-CONTEXT"}}'`,
    ran: true,
    modelSees: 'AFTER-CONTEXT',
  },
];

const required = agentRequired('gemini');
const problem = binaryProblem(GEMINI);
if (problem !== undefined && !required)
  console.warn(
    `[gemini-protocol.test.ts] Gemini CLI cannot run on this platform, so its tests are skipped: ${problem}`,
  );

describe.runIf(problem === undefined || required)("Gemini CLI's hook protocol, measured", () => {
  let model: MockModel;
  const projects: AgentProject[] = [];

  beforeAll(async () => {
    if (problem !== undefined) throw new Error(`Gemini CLI is required here (CI=true) but cannot run: ${problem}`);
    model = await startGeminiModel();
  });
  afterAll(async () => {
    await model?.close();
    for (const project of projects) project.remove();
  });

  test.concurrent.each(ROWS.map((row, index) => ({ ...row, index })))('$fact', async (row) => {
    const project = geminiProject(model.url, {});
    projects.push(project);
    const hook = {
      type: 'command',
      command: rowHook(project, row),
      ...(row.timeout === undefined ? {} : { timeout: row.timeout }),
    };
    mkdirSync(join(project.dir, '.gemini'));
    writeFileSync(
      join(project.dir, '.gemini/settings.json'),
      JSON.stringify({ hooks: { [row.event]: [{ hooks: [hook] }] } }),
    );
    const id = `gemini-row-${row.index}`;
    await runGemini(project, `Please RUN#${id}<<touch marker>>`);
    const outcome = rowOutcome(project);
    expect(outcome.ran).toBe(row.ran);
    expect(outcome.payload).toMatchObject({
      hook_event_name: row.event,
      session_id: expect.any(String),
      cwd: project.dir,
      tool_name: 'run_shell_command',
      tool_input: { command: 'touch marker' },
    });
    if (row.modelSees !== undefined)
      expect(JSON.stringify(geminiToolResults(model.requests(id).at(-1)!))).toContain(row.modelSees);
  });
});
