import { describe, expect, test } from 'vitest';
import type { HookConfig } from '../../config/hook-definition.ts';
import { loadConfig } from '../../config/load-config.ts';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import { standInCommandRunner } from '../../../test-support/stand-in-runners.ts';
import type { CommandExit } from '../preset.ts';
import { geminiPreset } from './gemini-preset.ts';

const runners = [standInCommandRunner().runner];
const load = (text: string, source = '/work/project/.gemini/settings.json'): HookConfig =>
  loadConfig([{ text, source }], { runners });
const exit = (fields: Partial<CommandExit>): CommandExit => ({
  exitCode: 0,
  signal: null,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  ...fields,
});
const read = (event: string, fields: Partial<CommandExit>) =>
  geminiPreset.command.readExit(exit(fields), { event, preset: geminiPreset, maxOutputBytes: 1_000_000 });
const write = (event: string, fields: Partial<EmitOutcome>) =>
  geminiPreset.writeAnswer!({ event, decision: 'proceed', hooks: [], warnings: [], ...fields }, event);

describe('gemini settings files', () => {
  test('.gemini/settings.json loads unchanged: timeouts in milliseconds, description and sequential set aside', () => {
    const config = load(
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        hooks: {
          BeforeTool: [
            {
              matcher: 'run_shell_command',
              sequential: true,
              hooks: [{ type: 'command', command: 'guard.sh', timeout: 5000, name: 'guard', description: 'no rm' }],
            },
          ],
          AfterTool: [{ hooks: [{ type: 'command', command: 'fmt.sh' }] }],
        },
      }),
    );
    expect(config.preset).toBe('gemini');
    expect(config.warnings).toEqual([]);
    expect(config.hooks.map((hook) => [hook.name, hook.event, hook.matcher, hook.timeoutMs, hook.onError])).toEqual([
      ['guard', 'BeforeTool', '^(?:run_shell_command)$', 5000, 'proceed'],
      ['AfterTool:*:fmt.sh', 'AfterTool', undefined, 60_000, 'proceed'],
    ]);
  });

  test('an unknown event is a problem naming the nearest one; the other hooks still load', () => {
    const config = load(
      JSON.stringify({
        hooks: {
          BeforeTol: [{ hooks: [{ type: 'command', command: 'x' }] }],
          AfterTool: [{ hooks: [{ type: 'command', command: 'y' }] }],
        },
      }),
    );
    expect(config.hooks.map((hook) => hook.name)).toEqual(['AfterTool:*:y']);
    expect(config.problems?.map((problem) => problem.message)).toEqual([
      'unknown event "BeforeTol" for preset "gemini"',
    ]);
    expect(config.problems?.[0]?.fix).toMatch(/did you mean "BeforeTool"\?/);
  });
});

describe('a command is read as Gemini CLI reads it', () => {
  test('exit 2 with a reason blocks; exit 2 without one, exit 1 and a signal fail (Gemini CLI runs the tool)', () => {
    expect(read('BeforeTool', { exitCode: 2, stderr: 'no rm -rf\n' })).toEqual({
      status: 'ok',
      decision: { decision: 'block', reason: 'no rm -rf' },
      warnings: [],
    });
    expect(read('BeforeTool', { exitCode: 2 })).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/no reason on stderr/),
    });
    expect(read('BeforeTool', { exitCode: 1, stderr: 'oops' })).toMatchObject({
      status: 'failed',
      error: 'hook exited with code 1: oops',
    });
    expect(read('BeforeTool', { exitCode: null, signal: 'SIGKILL' })).toMatchObject({ status: 'failed' });
  });

  test('exit 0: decision deny/block with reason, a new tool_input, additionalContext, continue false', () => {
    expect(read('BeforeTool', { stdout: '{"decision":"deny","reason":"nope"}' })).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'nope' },
    });
    expect(
      read('BeforeTool', {
        stdout:
          '{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls"}}}',
      }),
    ).toMatchObject({ status: 'ok', decision: { decision: 'allow', updated_input: { command: 'ls' } } });
    expect(
      read('AfterTool', {
        stdout: '{"hookSpecificOutput":{"additionalContext":"ctx"},"continue":false,"stopReason":"s"}',
      }),
    ).toMatchObject({
      decision: { decision: 'proceed', additional_context: 'ctx', continue: false, stop_reason: 's' },
    });
  });

  test('a garbled deciding field fails the hook; plain text is ignored with a warning', () => {
    expect(read('BeforeTool', { stdout: '{"decision":"nope"}' })).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/decision must be "allow", "deny", "block" or "ask"/),
    });
    expect(read('BeforeTool', { stdout: 'hello' })).toEqual({
      status: 'ok',
      decision: { decision: 'proceed' },
      warnings: ['stdout is not a JSON answer; Gemini CLI ignores it'],
    });
  });
});

describe('the merged outcome is written as Gemini CLI honours it', () => {
  test('a block is exit 0 with decision deny and a non-empty reason, never exit 2', () => {
    expect(write('BeforeTool', { decision: 'block', reason: '', decided_by: 'guard' })).toEqual({
      exitCode: 0,
      stdout: '{"decision":"deny","reason":"blocked by Hookline (hook \\"guard\\")"}\n',
    });
    expect(JSON.parse(write('BeforeTool', { decision: 'ask', reason: 'sure?' }).stdout!)).toEqual({
      decision: 'deny',
      reason: "needs the user's approval, which Gemini CLI cannot ask for here: sure?",
    });
  });

  test('a rewrite, added context and a stop', () => {
    expect(JSON.parse(write('BeforeTool', { updated_input: { command: 'ls' } }).stdout!)).toEqual({
      decision: 'allow',
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'ls' } },
    });
    expect(JSON.parse(write('AfterTool', { additional_context: ['a', 'b'], continue: false }).stdout!)).toEqual({
      continue: false,
      stopReason: 'blocked by Hookline',
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'a\n\nb' },
    });
    expect(write('AfterTool', {})).toEqual({ exitCode: 0, stdout: '{}\n' });
  });

  test('every answer written reads back as the same decision', () => {
    for (const fields of [
      { decision: 'block', reason: 'r' },
      { decision: 'proceed', updated_input: { command: 'x' } },
    ] as const) {
      const answer = write('BeforeTool', fields);
      expect(read('BeforeTool', { stdout: answer.stdout! })).toMatchObject({ status: 'ok' });
    }
  });
});
