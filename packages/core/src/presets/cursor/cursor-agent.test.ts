import { expect, test } from 'vitest';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { AgentCall } from '../agent-adapter.ts';
import { cursorAgent } from './cursor-agent.ts';

// Payloads as Cursor's hooks reference documents them (Cursor has no command-line client to capture from).
const common = {
  conversation_id: 'conv-123',
  generation_id: 'gen-456',
  workspace_roots: ['/work/proj'],
};
const shell = { ...common, hook_event_name: 'beforeShellExecution', command: 'rm -rf build', cwd: '/work/proj' };
const call = (payload: Record<string, unknown>): AgentCall => {
  const read = cursorAgent.readCall(payload);
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
const write = (payload: Record<string, unknown>, fields: Partial<EmitOutcome>) => {
  const event = cursorAgent.canonicalEvent(call(payload))!;
  return JSON.parse(
    cursorAgent.writeAnswer({ call: call(payload), outcome: outcome(fields), form: 'canonical', event }).stdout!,
  );
};

test('beforeShellExecution is a canonical pre_tool_use of shell, keyed by the conversation', () => {
  expect(cursorAgent.canonicalEvent(call(shell))).toEqual({
    event: 'pre_tool_use',
    context: expect.objectContaining({
      session_id: 'conv-123',
      tool_name: 'shell',
      tool_input: { command: 'rm -rf build', cwd: '/work/proj' },
      agent: 'cursor',
      agent_event: 'beforeShellExecution',
      agent_tool_name: 'Shell',
    }),
  });
  expect(
    cursorAgent.canonicalEvent(call({ ...common, hook_event_name: 'beforeReadFile', file_path: '/p/.env' }))?.context,
  ).toMatchObject({ tool_name: 'file_read', tool_input: { file_path: '/p/.env' } });
  expect(
    cursorAgent.canonicalEvent(
      call({ ...common, hook_event_name: 'beforeMCPExecution', tool_name: 'query', tool_input: '{"sql":"x"}' }),
    )?.context,
  ).toMatchObject({ tool_name: 'mcp', mcp_tool: 'query', tool_input: { sql: 'x' } });
  expect(
    cursorAgent.canonicalEvent(
      call({ ...common, hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command: 'ls' } }),
    )?.context,
  ).toMatchObject({ tool_name: 'shell' });
});

test('a block is permission deny with the reason for the model and the user', () => {
  expect(write(shell, { decision: 'block', reason: 'no rm -rf' })).toEqual({
    permission: 'deny',
    agent_message: 'no rm -rf',
    user_message: 'no rm -rf',
  });
});

test('a rewrite takes effect on preToolUse; on beforeShellExecution, which cannot take one, the call is refused', () => {
  const generic = {
    ...common,
    hook_event_name: 'preToolUse',
    tool_name: 'Shell',
    tool_input: { command: 'rm -rf /', timeout: 5 },
  };
  expect(write(generic, { updated_input: { command: 'echo no' } })).toEqual({
    permission: 'allow',
    updated_input: { command: 'echo no', timeout: 5 },
  });
  expect(write(shell, { updated_input: { command: 'echo no' } })).toMatchObject({
    permission: 'deny',
    agent_message: expect.stringMatching(/cannot change the input of beforeShellExecution/),
  });
});

test('failures refuse guards; an unreadable payload exits 2; prompt submission and stop answer in their own fields', () => {
  expect(JSON.parse(cursorAgent.writeFailure(call(shell), 'broken config').stdout!)).toEqual({
    permission: 'deny',
    agent_message: 'broken config',
    user_message: 'broken config',
  });
  expect(cursorAgent.writeFailure(undefined, 'bad input')).toEqual({ exitCode: 2, stderr: 'bad input\n' });
  expect(
    write({ ...common, hook_event_name: 'beforeSubmitPrompt', prompt: 'hi' }, { decision: 'block', reason: 'r' }),
  ).toEqual({
    continue: false,
    user_message: 'r',
  });
});

test('install: flat entries, failClosed on guards, version 1; uninstall removes only them', () => {
  const entry = { command: () => 'hookline bridge cursor', timeoutSeconds: 60 };
  const user = { version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }] } };
  const installed = cursorAgent.settings.addEntries(user, entry, cursorAgent.settings.events);
  const hooks = installed['hooks'] as Record<string, unknown[]>;
  expect(hooks['beforeShellExecution']).toEqual([{ command: 'hookline bridge cursor', timeout: 60, failClosed: true }]);
  expect(hooks['afterFileEdit']).toEqual([
    { command: './format.sh' },
    { command: 'hookline bridge cursor', timeout: 60 },
  ]);
  expect(cursorAgent.settings.addEntries(installed, entry, cursorAgent.settings.events)).toEqual(installed);
  expect(cursorAgent.settings.removeEntries(installed, (command) => command === 'hookline bridge cursor')).toEqual(
    user,
  );
  expect(cursorAgent.settings.problems?.({ version: 2 })).toEqual([
    '"version" is 2; Cursor reads hooks.json of version 1',
  ]);
});

test('install writes entries only for the events asked for, and canonically maps each event it can', () => {
  const entry = { command: () => 'hookline bridge cursor', timeoutSeconds: 60 };
  expect(cursorAgent.settings.addEntries({}, entry, ['beforeShellExecution'])).toEqual({
    version: 1,
    hooks: { beforeShellExecution: [{ command: 'hookline bridge cursor', timeout: 60, failClosed: true }] },
  });
  expect(cursorAgent.presetEvent('beforeShellExecution', 'canonical')).toBe('pre_tool_use');
  expect(cursorAgent.presetEvent('afterAgentThought', 'canonical')).toBeUndefined();
  expect(cursorAgent.presetEvent('afterAgentThought', 'native')).toBe('afterAgentThought');
});
