import { expect, test } from 'vitest';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { AgentCall } from '../agent-adapter.ts';
import { claudeAgent } from './claude-agent.ts';

const call = (payload: Record<string, unknown>): AgentCall => {
  const read = claudeAgent.readCall({ session_id: 's', ...payload });
  if ('problem' in read) throw new Error(read.problem);
  return read;
};
const outcome = (fields: Partial<EmitOutcome>): EmitOutcome => ({
  event: 'pre_tool_use',
  decision: 'proceed',
  hooks: [],
  warnings: [],
  ...fields,
});

test.each([
  ['Bash', { command: 'ls' }, { tool_name: 'shell', tool_input: { command: 'ls' } }],
  ['MultiEdit', { file_path: 'a' }, { tool_name: 'file_edit' }],
  ['NotebookEdit', { notebook_path: 'n.ipynb' }, { tool_name: 'file_edit', tool_input: { file_path: 'n.ipynb' } }],
  ['mcp__github__create_issue', {}, { tool_name: 'mcp', mcp_server: 'github', mcp_tool: 'create_issue' }],
  ['SomeNewTool', {}, { tool_name: 'SomeNewTool' }],
])('%s is the canonical %j, its own name kept', (tool, input, expected) => {
  const mapped = claudeAgent.canonicalEvent(
    call({ hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input }),
  )!;
  expect(mapped.event).toBe('pre_tool_use');
  expect(mapped.context).toMatchObject({
    ...expected,
    agent: 'claude',
    agent_event: 'PreToolUse',
    agent_tool_name: tool,
  });
  expect(mapped.context['hook_event_name']).toBeUndefined();
});

test('an event without a canonical equivalent maps to nothing; the native event is the payload as it is', () => {
  const permission = call({ hook_event_name: 'PermissionRequest', tool_name: 'Bash' });
  expect(claudeAgent.canonicalEvent(permission)).toBeUndefined();
  expect(claudeAgent.nativeEvent(permission)).toEqual({ event: 'PermissionRequest', context: permission.payload });
});

test('a payload that is not a Claude Code hook input is a problem, not a call', () => {
  expect(claudeAgent.readCall([])).toEqual({ problem: expect.stringContaining('not a JSON object') });
  expect(claudeAgent.readCall({ session_id: 's' })).toEqual({ problem: expect.stringContaining('hook_event_name') });
});

test('a failure refuses guards with the reason and lets other events go on with it as a message', () => {
  const guard = claudeAgent.writeFailure(call({ hook_event_name: 'PreToolUse' }), 'config broken');
  expect(claudeAgent.readWire(guard, call({ hook_event_name: 'PreToolUse' }))).toEqual({
    verdict: 'block',
    reason: 'config broken',
  });
  const permission = claudeAgent.writeFailure(call({ hook_event_name: 'PermissionRequest' }), 'config broken');
  expect(JSON.parse(permission.stdout!).hookSpecificOutput.decision).toEqual({
    behavior: 'deny',
    message: 'config broken',
  });
  const other = claudeAgent.writeFailure(call({ hook_event_name: 'Stop' }), 'config broken');
  expect(JSON.parse(other.stdout!)).toEqual({ systemMessage: 'config broken' });
  expect(claudeAgent.writeFailure(undefined, 'unreadable')).toEqual({ exitCode: 2, stderr: 'unreadable\n' });
});

test("a canonical rewrite keeps the fields it does not give; a native one is the hook's", () => {
  const bash = call({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls', timeout: 5 } });
  const rewrite = outcome({ updated_input: { command: 'ls -la' } });
  const event = { event: 'pre_tool_use', context: {} };
  const canonical = claudeAgent.writeAnswer({ call: bash, outcome: rewrite, form: 'canonical', event });
  expect(JSON.parse(canonical.stdout!).hookSpecificOutput.updatedInput).toEqual({ command: 'ls -la', timeout: 5 });
  const native = claudeAgent.writeAnswer({ call: bash, outcome: rewrite, form: 'native', event });
  expect(JSON.parse(native.stdout!).hookSpecificOutput.updatedInput).toEqual({ command: 'ls -la' });
});

test('readWire reads answers as Claude Code does', () => {
  const pre = call({ hook_event_name: 'PreToolUse' });
  expect(claudeAgent.readWire({ exitCode: 0 }, pre)).toEqual({ verdict: 'proceed' });
  expect(claudeAgent.readWire({ exitCode: 1, stderr: 'x' }, pre).verdict).toBe('proceed');
  expect(claudeAgent.readWire({ exitCode: 0, stdout: 'hello' }, pre).verdict).toBe('invalid');
  const wrongEvent = '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}';
  expect(claudeAgent.readWire({ exitCode: 0, stdout: wrongEvent }, pre).verdict).toBe('invalid');
  const ask = claudeAgent.writeAnswer({
    call: pre,
    outcome: outcome({ decision: 'ask', reason: 'sure?' }),
    form: 'native',
    event: { event: 'PreToolUse', context: {} },
  });
  expect(claudeAgent.readWire(ask, pre)).toEqual({ verdict: 'ask', reason: 'sure?' });
});

test("the settings entries merge with the user's, once, and come out again alone", () => {
  const users = {
    model: 'opus',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'mine' }] }] },
  };
  const entry = { command: () => 'hookline bridge claude', timeoutSeconds: 60 };
  const once = claudeAgent.settings.addEntries(users, entry, claudeAgent.settings.events);
  expect(claudeAgent.settings.addEntries(once, entry, claudeAgent.settings.events)).toEqual(once);
  expect(claudeAgent.settings.addEntries(users, entry, ['Stop']).hooks).toEqual({
    ...users.hooks,
    Stop: [{ hooks: [{ type: 'command', command: 'hookline bridge claude', timeout: 60 }] }],
  });
  expect(
    claudeAgent.settings.commands(once).filter((found) => found.command === 'hookline bridge claude'),
  ).toHaveLength(claudeAgent.settings.events.length);
  expect(claudeAgent.settings.removeEntries(once, (command) => command === 'hookline bridge claude')).toEqual(users);
  expect(claudeAgent.settings.problems!({ disableAllHooks: true })).toHaveLength(1);
});
