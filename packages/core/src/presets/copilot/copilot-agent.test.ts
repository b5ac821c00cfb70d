import { expect, test } from 'vitest';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { AgentCall } from '../agent-adapter.ts';
import { copilotAgent } from './copilot-agent.ts';

// Payloads as `@github/copilot` 1.0.102 sent them to a hook (captured from real runs): no event name.
const common = { sessionId: 'a9cc2a65', timestamp: 1796512539571, cwd: '/work/proj' };
const pre = { ...common, toolName: 'bash', toolArgs: { command: 'rm -rf build', description: 'clean' } };
const post = {
  ...pre,
  toolResult: { resultType: 'success', textResultForLlm: '\n<shellId: 0 completed with exit code 0>' },
};
const call = (payload: Record<string, unknown>, event: string): AgentCall => {
  const read = copilotAgent.readCall(payload, event);
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

test('the event comes from the entry (--event), or from hookName; a payload naming neither is refused', () => {
  expect(copilotAgent.readCall(pre, 'preToolUse')).toMatchObject({ agentEvent: 'preToolUse' });
  expect(copilotAgent.readCall({ ...common, hookName: 'permissionRequest' })).toMatchObject({
    agentEvent: 'permissionRequest',
  });
  expect(copilotAgent.readCall(pre)).toMatchObject({ problem: expect.stringContaining('--event') });
  expect(copilotAgent.readCall([pre], 'preToolUse')).toHaveProperty('problem');
});

test('preToolUse of bash is a canonical pre_tool_use of shell, keyed by the session', () => {
  expect(copilotAgent.canonicalEvent(call(pre, 'preToolUse'))).toEqual({
    event: 'pre_tool_use',
    context: expect.objectContaining({
      session_id: 'a9cc2a65',
      tool_name: 'shell',
      tool_input: { command: 'rm -rf build', description: 'clean' },
      agent: 'copilot',
      agent_event: 'preToolUse',
      agent_tool_name: 'bash',
    }),
  });
  expect(copilotAgent.canonicalEvent(call(post, 'postToolUse'))?.context).toMatchObject({
    tool_name: 'shell',
    tool_response: { resultType: 'success' },
  });
  const create = { ...common, toolName: 'create', toolArgs: JSON.stringify({ path: '/p/a.txt', file_text: 'hi' }) };
  expect(copilotAgent.canonicalEvent(call(create, 'preToolUse'))?.context).toMatchObject({
    tool_name: 'file_write',
    tool_input: { path: '/p/a.txt', file_path: '/p/a.txt', content: 'hi' },
  });
  expect(copilotAgent.canonicalEvent(call(common, 'agentStop'))?.event).toBe('stop');
  expect(copilotAgent.canonicalEvent(call(common, 'errorOccurred'))).toBeUndefined();
});

test("a canonical rewrite becomes Copilot's whole arguments, in its own field names", () => {
  const request = (payload: Record<string, unknown>, rewrite: Record<string, unknown>) => {
    const bridged = call(payload, 'preToolUse');
    const answer = copilotAgent.writeAnswer({
      call: bridged,
      outcome: outcome({ updated_input: rewrite }),
      form: 'canonical',
      event: copilotAgent.canonicalEvent(bridged)!,
    });
    return JSON.parse(answer.stdout!);
  };
  expect(request(pre, { command: 'ls' })).toMatchObject({
    permissionDecision: 'allow',
    modifiedArgs: { command: 'ls', description: 'clean' },
  });
  const view = { ...common, toolName: 'view', toolArgs: { path: '/p/a' } };
  expect(request(view, { file_path: '/p/b' }).modifiedArgs).toEqual({ path: '/p/b' });
});

test('failures: a guard is denied with the reason, other events go on, an unknown call is denied', () => {
  const guard = copilotAgent.writeFailure(call(pre, 'preToolUse'), 'config broken');
  expect(guard.exitCode).toBe(0);
  expect(JSON.parse(guard.stdout!)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'config broken' });
  const other = copilotAgent.writeFailure(call(post, 'postToolUse'), 'config broken');
  expect(JSON.parse(other.stdout!)).toEqual({});
  expect(other.stderr).toContain('config broken');
  const unknown = copilotAgent.writeFailure(undefined, 'not JSON');
  expect(JSON.parse(unknown.stdout!)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'not JSON' });
});

test('readWire reads answers as Copilot does', () => {
  const guard = call(pre, 'preToolUse');
  expect(
    copilotAgent.readWire(
      { exitCode: 0, stdout: '{"permissionDecision":"deny","permissionDecisionReason":"r"}' },
      guard,
    ),
  ).toEqual({
    verdict: 'block',
    reason: 'r',
  });
  expect(copilotAgent.readWire({ exitCode: 0, stdout: 'deny' }, guard).verdict).toBe('invalid');
  expect(copilotAgent.readWire({ exitCode: 1 }, guard).verdict).toBe('block');
  expect(copilotAgent.readWire({ exitCode: 0, stdout: '{}' }, guard).verdict).toBe('proceed');
  expect(
    copilotAgent.readWire({ exitCode: 0, stdout: '{"decision":"block","reason":"r"}' }, call(common, 'agentStop')),
  ).toEqual({ verdict: 'block', reason: 'r' });
});

test('install writes one flat entry per event, naming the event, and removes only its own', () => {
  const settings = copilotAgent.settings;
  const mine = settings.addEntries(
    { hooks: { preToolUse: [{ type: 'command', bash: './own.sh' }] }, disableAllHooks: false },
    { command: () => 'hookline bridge copilot', timeoutSeconds: 60 },
    ['preToolUse', 'agentStop'],
  );
  expect(mine).toEqual({
    version: 1,
    disableAllHooks: false,
    hooks: {
      preToolUse: [
        { type: 'command', bash: './own.sh' },
        { type: 'command', bash: 'hookline bridge copilot --event preToolUse', timeoutSec: 60 },
      ],
      agentStop: [{ type: 'command', bash: 'hookline bridge copilot --event agentStop', timeoutSec: 60 }],
    },
  });
  expect(
    settings.addEntries(mine, { command: () => 'hookline bridge copilot', timeoutSeconds: 60 }, ['preToolUse']),
  ).toEqual(mine);
  expect(settings.commands(mine).map((entry) => [entry.agentEvent, entry.timeoutSeconds])).toEqual([
    ['preToolUse', undefined],
    ['preToolUse', 60],
    ['agentStop', 60],
  ]);
  expect(settings.removeEntries(mine, (command) => command.startsWith('hookline'))).toEqual({
    version: 1,
    disableAllHooks: false,
    hooks: { preToolUse: [{ type: 'command', bash: './own.sh' }] },
  });
  expect(settings.problems?.({ disableAllHooks: true, version: 2 })).toHaveLength(2);
});
