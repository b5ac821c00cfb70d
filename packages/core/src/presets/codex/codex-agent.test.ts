import { expect, test } from 'vitest';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { AgentCall } from '../agent-adapter.ts';
import { codexAgent } from './codex-agent.ts';

// A PreToolUse payload as Codex 0.171 sent it to a hook (captured from a real run).
const preToolUse = {
  session_id: '01a237ca-1a50-78d1-800f-81e92c220c9f',
  turn_id: '01a237ca-1a6c-7c41-9f10-b80d38cde641',
  transcript_path: '/home/u/.codex/sessions/rollout.jsonl',
  cwd: '/work/proj',
  hook_event_name: 'PreToolUse',
  model: 'gpt-5',
  permission_mode: 'bypassPermissions',
  tool_name: 'Bash',
  tool_input: { command: 'touch marker.txt' },
  tool_use_id: 'call_1',
};
const call = (payload: Record<string, unknown>): AgentCall => {
  const read = codexAgent.readCall(payload);
  if ('problem' in read) throw new TypeError(read.problem);
  return read;
};
const outcome = (fields: Partial<EmitOutcome>): EmitOutcome => ({
  event: 'pre_tool_use',
  decision: 'proceed',
  hooks: [],
  warnings: [],
  ...fields,
});

test("Codex's Bash is the canonical shell tool, its command in tool_input.command", () => {
  expect(codexAgent.canonicalEvent(call(preToolUse))).toEqual({
    event: 'pre_tool_use',
    context: expect.objectContaining({
      session_id: preToolUse.session_id,
      turn_id: preToolUse.turn_id,
      tool_name: 'shell',
      tool_input: { command: 'touch marker.txt' },
      agent: 'codex',
      agent_event: 'PreToolUse',
      agent_tool_name: 'Bash',
    }),
  });
  expect(
    codexAgent.canonicalEvent(call({ ...preToolUse, tool_name: 'mcp__db__query', tool_input: {} }))?.context,
  ).toMatchObject({ tool_name: 'mcp', mcp_server: 'db', mcp_tool: 'query' });
});

test('answers use only what Codex honours: a reasoned deny; a rewrite as allow + updatedInput; never ask', () => {
  const event = codexAgent.canonicalEvent(call(preToolUse))!;
  const write = (fields: Partial<EmitOutcome>) =>
    JSON.parse(
      codexAgent.writeAnswer({ call: call(preToolUse), outcome: outcome(fields), form: 'canonical', event }).stdout!,
    );
  expect(write({ decision: 'block', reason: 'no' }).hookSpecificOutput).toEqual({
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'no',
  });
  expect(write({ decision: 'ask', reason: 'sure?' }).hookSpecificOutput.permissionDecision).toBe('deny');
  expect(write({ updated_input: { command: 'echo safe' } }).hookSpecificOutput).toMatchObject({
    permissionDecision: 'allow',
    updatedInput: { command: 'echo safe' },
  });
  expect(write({})).toEqual({});
});

test('failures refuse guards with a reason; an unreadable payload exits 2 with the reason on stderr', () => {
  const failure = codexAgent.writeFailure(call(preToolUse), 'hookline crashed');
  expect(codexAgent.readWire(failure, call(preToolUse))).toEqual({ verdict: 'block', reason: 'hookline crashed' });
  expect(codexAgent.writeFailure(undefined, 'not JSON')).toEqual({ exitCode: 2, stderr: 'not JSON\n' });
});

test("doctor reads Codex's fail-open answers as Codex does", () => {
  const doctorCall = call(codexAgent.doctorPayload('/work/proj'));
  expect(codexAgent.readWire({ exitCode: 1 }, doctorCall).verdict).toBe('proceed');
  expect(codexAgent.readWire({ exitCode: 2 }, doctorCall).verdict).toBe('proceed');
  expect(
    codexAgent.readWire(
      { exitCode: 0, stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}' },
      doctorCall,
    ).verdict,
  ).toBe('invalid');
  expect(
    codexAgent.readWire(
      { exitCode: 0, stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}' },
      doctorCall,
    ).verdict,
  ).toBe('invalid');
});

test('install writes timeouts in seconds into .codex/hooks.json groups, once', () => {
  const entry = { command: () => 'hookline bridge codex', timeoutSeconds: 60 };
  const installed = codexAgent.settings.addEntries({}, entry, codexAgent.settings.events);
  expect(codexAgent.settings.project).toEqual({ under: 'project', path: '.codex/hooks.json' });
  expect((installed['hooks'] as Record<string, unknown[]>)['PreToolUse']).toEqual([
    { hooks: [{ type: 'command', command: 'hookline bridge codex', timeout: 60 }] },
  ]);
  expect(codexAgent.settings.addEntries(installed, entry, codexAgent.settings.events)).toEqual(installed);
});
