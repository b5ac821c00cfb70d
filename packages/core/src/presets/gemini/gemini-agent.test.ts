import { expect, test } from 'vitest';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { AgentCall } from '../agent-adapter.ts';
import { geminiAgent } from './gemini-agent.ts';

// A BeforeTool payload as Gemini CLI 0.61 sent it to a hook (captured from a real run).
const beforeTool = {
  session_id: '93526d20-207b-4ef9-811c-6c09c897c855',
  transcript_path: '/home/u/.gemini/tmp/proj/chats/session.jsonl',
  cwd: '/work/proj',
  hook_event_name: 'BeforeTool',
  timestamp: '2026-12-02T17:25:16.808Z',
  tool_name: 'run_shell_command',
  tool_input: { command: 'rm -rf build', description: 'clean' },
};
const call = (payload: Record<string, unknown>): AgentCall => {
  const read = geminiAgent.readCall(payload);
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

test('a BeforeTool call is a canonical pre_tool_use of tool shell, Gemini CLI names kept', () => {
  const event = geminiAgent.canonicalEvent(call(beforeTool));
  expect(event).toEqual({
    event: 'pre_tool_use',
    context: expect.objectContaining({
      session_id: beforeTool.session_id,
      tool_name: 'shell',
      tool_input: { command: 'rm -rf build', description: 'clean' },
      agent: 'gemini',
      agent_event: 'BeforeTool',
      agent_tool_name: 'run_shell_command',
    }),
  });
  expect(event?.context).not.toHaveProperty('hook_event_name');
  expect(geminiAgent.isGuard(call(beforeTool))).toBe(true);
});

test('file and MCP tools get canonical names', () => {
  const named = (tool_name: string, extra: Record<string, unknown> = {}) =>
    geminiAgent.canonicalEvent(call({ ...beforeTool, tool_name, ...extra }))?.context;
  expect(named('write_file')).toMatchObject({ tool_name: 'file_write' });
  expect(named('replace')).toMatchObject({ tool_name: 'file_edit' });
  expect(named('mcp_my_server_query', { mcp_context: { server_name: 'my_server' } })).toMatchObject({
    tool_name: 'mcp',
    mcp_server: 'my_server',
    mcp_tool: 'query',
  });
});

test('a canonical block and a canonical rewrite are answered as Gemini CLI honours them', () => {
  const event = geminiAgent.canonicalEvent(call(beforeTool))!;
  const write = (fields: Partial<EmitOutcome>) =>
    geminiAgent.writeAnswer({ call: call(beforeTool), outcome: outcome(fields), form: 'canonical', event });
  expect(write({ decision: 'block', reason: 'no rm -rf' })).toEqual({
    exitCode: 0,
    stdout: '{"decision":"deny","reason":"no rm -rf"}\n',
  });
  // The rewrite keeps the fields the hook did not give.
  expect(JSON.parse(write({ updated_input: { command: 'echo safe' } }).stdout!)).toEqual({
    decision: 'allow',
    hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'echo safe', description: 'clean' } },
  });
});

test('a failure refuses a guard at exit 0 with a reason, and lets other events go on with a message', () => {
  expect(geminiAgent.writeFailure(call(beforeTool), 'config does not load')).toEqual({
    exitCode: 0,
    stdout: '{"decision":"deny","reason":"config does not load"}\n',
  });
  expect(geminiAgent.writeFailure(undefined, 'unreadable input').stdout).toContain('"decision":"deny"');
  const after = geminiAgent.writeFailure(call({ ...beforeTool, hook_event_name: 'AfterTool' }), 'oops');
  expect(JSON.parse(after.stdout!)).toEqual({ systemMessage: 'oops' });
});

test("doctor reads every answer as Gemini CLI would, including exit 2's fail-open trap", () => {
  const doctorCall = call(geminiAgent.doctorPayload('/work/proj'));
  expect(geminiAgent.readWire(geminiAgent.writeFailure(doctorCall, 'no'), doctorCall)).toEqual({
    verdict: 'block',
    reason: 'no',
  });
  expect(geminiAgent.readWire({ exitCode: 2 }, doctorCall).verdict).toBe('proceed');
  expect(geminiAgent.readWire({ exitCode: 0, stdout: 'hi' }, doctorCall).verdict).toBe('invalid');
});

test('install: one group per event with the timeout in milliseconds; twice changes nothing; uninstall keeps the rest', () => {
  const entry = { command: (event: string) => `hookline bridge gemini # ${event}`, timeoutSeconds: 60 };
  const mine = { matcher: 'write_file', hooks: [{ type: 'command', command: 'fmt.sh' }] };
  const settings = { theme: 'dark', hooks: { AfterTool: [mine] } };
  const installed = geminiAgent.settings.addEntries(settings, entry, geminiAgent.settings.events);
  expect(installed['theme']).toBe('dark');
  expect((installed['hooks'] as Record<string, unknown[]>)['BeforeTool']).toEqual([
    { hooks: [{ type: 'command', command: 'hookline bridge gemini # BeforeTool', timeout: 60_000 }] },
  ]);
  expect(geminiAgent.settings.addEntries(installed, entry, geminiAgent.settings.events)).toEqual(installed);
  expect(geminiAgent.settings.removeEntries(installed, (command) => command.startsWith('hookline bridge'))).toEqual(
    settings,
  );
});
