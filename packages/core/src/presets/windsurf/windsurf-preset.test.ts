import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import { standInCommandRunner } from '../../../test-support/stand-in-runners.ts';
import type { AgentCall } from '../agent-adapter.ts';
import type { CommandExit } from '../preset.ts';
import { windsurfAgent } from './windsurf-agent.ts';
import { windsurfPreset } from './windsurf-preset.ts';

// Windsurf has no command-line client to run: these tests hold the preset to Cascade's published hooks
// reference (docs.windsurf.com/windsurf/cascade/hooks), with the payloads it documents.
const common = { trajectory_id: 'traj-1', execution_id: 'exec-1', timestamp: '2026-12-05T23:00:00Z' };
const run = { ...common, agent_action_name: 'pre_run_command', tool_info: { command_line: 'rm -rf build', cwd: '/p' } };
const call = (payload: Record<string, unknown>): AgentCall => {
  const read = windsurfAgent.readCall(payload);
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
const exit = (fields: Partial<CommandExit>): CommandExit => ({
  exitCode: 0,
  signal: null,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  ...fields,
});
const read = (event: string, fields: Partial<CommandExit>) =>
  windsurfPreset.command.readExit(exit(fields), { event, preset: windsurfPreset, maxOutputBytes: 1_000_000 });

describe('the canonical events of Cascade actions', () => {
  test('pre_run_command is a pre_tool_use of shell; read, write and MCP map to their tools', () => {
    expect(windsurfAgent.canonicalEvent(call(run))).toEqual({
      event: 'pre_tool_use',
      context: expect.objectContaining({
        session_id: 'traj-1',
        tool_name: 'shell',
        tool_input: { command: 'rm -rf build', cwd: '/p' },
        agent: 'windsurf',
        agent_event: 'pre_run_command',
        agent_tool_name: 'run_command',
      }),
    });
    const file = (event: string) => ({ ...common, agent_action_name: event, tool_info: { file_path: '/p/.env' } });
    expect(windsurfAgent.canonicalEvent(call(file('pre_read_code')))?.context).toMatchObject({
      tool_name: 'file_read',
      tool_input: { file_path: '/p/.env' },
    });
    expect(windsurfAgent.canonicalEvent(call(file('post_write_code')))).toMatchObject({
      event: 'post_tool_use',
      context: { tool_name: 'file_edit' },
    });
    const mcp = {
      ...common,
      agent_action_name: 'pre_mcp_tool_use',
      tool_info: { mcp_server_name: 'github', mcp_tool_name: 'create_issue', mcp_tool_arguments: { title: 't' } },
    };
    expect(windsurfAgent.canonicalEvent(call(mcp))?.context).toMatchObject({
      tool_name: 'mcp',
      mcp_server: 'github',
      mcp_tool: 'create_issue',
      tool_input: { title: 't' },
    });
    expect(windsurfAgent.readCall({ tool_info: {} })).toHaveProperty('problem');
  });
});

describe('the answer is an exit code, as the reference gives it', () => {
  const write = (payload: Record<string, unknown>, fields: Partial<EmitOutcome>) =>
    windsurfAgent.writeAnswer({
      call: call(payload),
      outcome: outcome(fields),
      form: 'canonical',
      event: windsurfAgent.canonicalEvent(call(payload))!,
    });

  test('a block is exit 2 with the reason on stderr; proceed and allow are exit 0', () => {
    expect(write(run, { decision: 'block', reason: 'no rm -rf' })).toEqual({ exitCode: 2, stderr: 'no rm -rf\n' });
    expect(write(run, { decision: 'block', reason: '' }).stderr).toContain('blocked by Hookline');
    expect(write(run, {})).toEqual({ exitCode: 0 });
    expect(write(run, { decision: 'allow' })).toEqual({ exitCode: 0 });
  });

  test('ask and a rewrite, which Cascade cannot take, refuse the action rather than run it unchanged', () => {
    expect(write(run, { decision: 'ask', reason: 'sure?' })).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('sure?'),
    });
    expect(write(run, { updated_input: { command: 'ls' } })).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('cannot change'),
    });
  });

  test('a post-hook never blocks; failures refuse pre-hooks and only warn on post-hooks', () => {
    const post = { ...run, agent_action_name: 'post_run_command' };
    expect(write(post, { decision: 'block', reason: 'r' })).toEqual({ exitCode: 0 });
    expect(windsurfAgent.writeFailure(call(run), 'broken')).toEqual({ exitCode: 2, stderr: 'broken\n' });
    expect(windsurfAgent.writeFailure(call(post), 'broken')).toEqual({ exitCode: 0, stderr: 'broken\n' });
    expect(windsurfAgent.writeFailure(undefined, 'not JSON').exitCode).toBe(2);
  });
});

describe("Windsurf's own hooks.json (preset windsurf)", () => {
  test('.windsurf/hooks.json loads unchanged; exit 2 blocks a pre-hook, other failures go on, stdout is no answer', () => {
    const config = loadConfig(
      [
        {
          text: JSON.stringify({
            hooks: { pre_run_command: [{ command: 'python3 guard.py', show_output: true }] },
          }),
          source: '/work/project/.windsurf/hooks.json',
        },
      ],
      { runners: [standInCommandRunner().runner] },
    );
    expect(config.preset).toBe('windsurf');
    expect(config.problems).toBeUndefined();
    expect(config.hooks.map((hook) => [hook.event, hook.onError])).toEqual([['pre_run_command', 'proceed']]);
    expect(read('pre_run_command', { exitCode: 2, stderr: 'no' })).toMatchObject({
      decision: { decision: 'block', reason: 'no' },
    });
    expect(read('post_run_command', { exitCode: 2, stderr: 'no' })).toMatchObject({
      decision: { decision: 'proceed', system_message: 'no' },
    });
    expect(read('pre_run_command', { exitCode: 1 })).toMatchObject({ status: 'failed' });
    expect(read('pre_run_command', { stdout: '{"decision":"block"}' })).toMatchObject({
      decision: { decision: 'proceed' },
    });
  });

  test('install writes one flat entry per event and removes only its own', () => {
    const settings = windsurfAgent.settings;
    const mine = settings.addEntries(
      { hooks: { pre_run_command: [{ command: './own.sh', show_output: false }] } },
      { command: () => 'hookline bridge windsurf', timeoutSeconds: 35 },
      ['pre_run_command'],
    );
    expect(mine).toEqual({
      hooks: {
        pre_run_command: [
          { command: './own.sh', show_output: false },
          { command: 'hookline bridge windsurf', show_output: true },
        ],
      },
    });
    expect(settings.removeEntries(mine, (command) => command.startsWith('hookline'))).toEqual({
      hooks: { pre_run_command: [{ command: './own.sh', show_output: false }] },
    });
  });
});
