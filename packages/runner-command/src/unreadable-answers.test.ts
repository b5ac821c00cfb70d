// The rule for answers that cannot be honoured, with real processes: output that looks like JSON
// (`{`, `[` or `"` first, or cut at the output cap) was meant as a decision; when it cannot be read
// or a deciding field has a wrong type or value, the hook FAILED and its on_error decides — never a
// silent proceed — and the reason reaches the outcome's warnings. One table per answer format.
import { createHookEngine, loadConfig, type EmitOutcome } from '@hookline/core';
import { describe, expect, test } from 'vitest';
import { commandRunner } from './command-runner.ts';
import { emitHooks, quote } from '../test-support/hook-harness.ts';

const POLICIES = ['block', 'proceed'] as const;

/** A deny written so that it is bigger than a 64-byte output cap. */
const padded = (answer: Record<string, unknown>): string =>
  JSON.stringify({ ...answer, systemMessage: 'x'.repeat(200) });

// Claude Code's answer format: each printed at exit 0 by a PreToolUse guard.
const CLAUDE_ANSWERS: ReadonlyArray<{
  readonly name: string;
  readonly stdout: string;
  readonly error: RegExp;
  readonly cap?: number;
}> = [
  {
    name: 'trailing comma',
    stdout: '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",}}',
    error: /not valid JSON/,
  },
  {
    name: 'upper-case value',
    stdout: '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "DENY"}}',
    error: /permissionDecision must be "allow", "deny" or "ask" \(lower case\), got "DENY"/,
  },
  {
    name: 'unknown value',
    stdout: '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "denied"}}',
    error: /got "denied"/,
  },
  { name: 'decision given a number', stdout: '{"decision": 1}', error: /decision must be "block".*got 1/ },
  {
    name: 'top-level deny',
    stdout: '{"decision": "deny", "reason": "no"}',
    error: /got "deny" — write \{"hookSpecificOutput"/,
  },
  {
    name: 'nested wrong type',
    stdout: '{"hookSpecificOutput": "deny"}',
    error: /hookSpecificOutput must be an object/,
  },
  {
    name: 'nested behavior wrong type',
    stdout: '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "decision": {"behavior": 0}}}',
    error: /decision\.behavior must be/,
  },
  {
    name: 'continue not a boolean',
    stdout: '{"continue": "no", "stopReason": "stop"}',
    error: /continue must be true or false/,
  },
  {
    name: 'JSON array',
    stdout: '[{"hookSpecificOutput": {"permissionDecision": "deny"}}]',
    error: /JSON array, not an object/,
  },
  { name: 'JSON string', stdout: '"deny"', error: /JSON string, not an object/ },
  {
    name: 'deny cut at the output cap',
    stdout: padded({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }),
    error: /larger than 64 bytes/,
    cap: 64,
  },
];

async function emitClaude(hook: Record<string, unknown>): Promise<EmitOutcome> {
  const runner = commandRunner({ environment: { PATH: process.env['PATH'] } });
  const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', ...hook }] }] } };
  const config = loadConfig([{ text: JSON.stringify(settings), source: '.claude/settings.json' }], {
    runners: [runner],
  });
  const engine = createHookEngine({ config, runners: [runner] });
  try {
    return await (
      await engine.emit('PreToolUse', {
        session_id: 's',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf /' },
      })
    ).settled;
  } finally {
    await engine.close();
  }
}

describe('claude: an answer meant as a decision that cannot be honoured is a failed hook', () => {
  for (const answer of CLAUDE_ANSWERS) {
    test.each(POLICIES)(`${answer.name}, on_error %s`, async (policy) => {
      const outcome = await emitClaude({
        command: `printf '%s' ${quote(answer.stdout)}`,
        on_error: policy,
        ...(answer.cap === undefined ? {} : { max_output_bytes: answer.cap }),
      });
      const [report] = outcome.hooks;
      expect(report?.status).toBe('failed');
      expect(report?.error).toMatch(answer.error);
      expect(outcome.decision).toBe(policy);
      // The failure is at the top of the outcome, whatever on_error made of it.
      expect(outcome.warnings.join('\n')).toMatch(answer.error);
    });
  }

  test('valid answers and plain text still read as before', async () => {
    const deny = await emitClaude({
      command: `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}'`,
    });
    expect([deny.decision, deny.reason, deny.hooks[0]?.status]).toEqual(['block', 'no', 'ok']);
    const plain = await emitClaude({ command: 'echo checked it, all fine', on_error: 'block' });
    expect([plain.decision, plain.hooks[0]?.status, plain.warnings]).toEqual(['proceed', 'ok', []]);
    // A number or `true` is not JSON-looking output: plain text, as in Claude Code.
    const number = await emitClaude({ command: 'echo 42', on_error: 'block' });
    expect([number.decision, number.hooks[0]?.status]).toEqual(['proceed', 'ok']);
  });

  test('plain text beyond the output cap is not an answer: it proceeds, and the cut is a warning in the outcome', async () => {
    const outcome = await emitClaude({
      command: `printf 'log line %.0s' $(seq 1 50)`,
      on_error: 'block',
      max_output_bytes: 64,
    });
    expect([outcome.decision, outcome.hooks[0]?.status]).toEqual(['proceed', 'ok']);
    expect(outcome.warnings.join('\n')).toContain('stdout exceeded 64 bytes');
  });
});

// Hookline's own decision JSON (preset arc), each printed at exit 0.
const HOOKLINE_ANSWERS: ReadonlyArray<{
  readonly name: string;
  readonly stdout: string;
  readonly error: RegExp;
  readonly cap?: number;
}> = [
  { name: 'trailing comma', stdout: '{"decision": "block", "reason": "no",}', error: /not valid JSON/ },
  {
    name: 'upper-case value',
    stdout: '{"decision": "BLOCK"}',
    error: /"decision" must be one of .* \(lower case\), got "BLOCK"/,
  },
  { name: 'unknown value', stdout: '{"decision": "deny"}', error: /got "deny"/ },
  { name: 'decision given a number', stdout: '{"decision": 2}', error: /got 2/ },
  {
    name: 'nested wrong type',
    stdout: '{"decision": "block", "updated_input": "rm"}',
    error: /"updated_input" must be an object/,
  },
  { name: 'JSON array', stdout: '[{"decision": "block"}]', error: /JSON array/ },
  {
    name: 'block cut at the output cap',
    stdout: JSON.stringify({ decision: 'block', reason: 'x'.repeat(200) }),
    error: /larger than 64 bytes/,
    cap: 64,
  },
];

describe('arc: a decision JSON that cannot be honoured is a failed hook', () => {
  for (const answer of HOOKLINE_ANSWERS) {
    test.each(POLICIES)(`${answer.name}, on_error %s`, async (policy) => {
      const outcome = await emitHooks([
        {
          command: `printf '%s' ${quote(answer.stdout)}`,
          on_error: policy,
          ...(answer.cap === undefined ? {} : { max_output_bytes: answer.cap }),
        },
      ]);
      expect(outcome.hooks[0]?.status).toBe('failed');
      expect(outcome.hooks[0]?.error).toMatch(answer.error);
      expect(outcome.decision).toBe(policy);
      expect(outcome.warnings.join('\n')).toMatch(answer.error);
    });
  }

  test('exit 2 with an unreadable JSON still blocks, and says why the JSON was not read', async () => {
    const outcome = await emitHooks([{ command: `printf '%s' '{"decision": "skip",}'; exit 2`, on_error: 'proceed' }]);
    expect([outcome.decision, outcome.reason, outcome.hooks[0]?.status]).toEqual([
      'block',
      'hook exited with code 2',
      'ok',
    ]);
    expect(outcome.warnings.join('\n')).toContain('exit code 2 blocks anyway');
  });

  test('a JSON object without a decision field decides nothing', async () => {
    const outcome = await emitHooks([{ command: `echo '{"ok": true}'` }]);
    expect([outcome.decision, outcome.hooks[0]?.status, outcome.warnings]).toEqual(['proceed', 'ok', []]);
  });
});
