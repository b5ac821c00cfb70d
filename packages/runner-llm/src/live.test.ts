// A smoke test against the real Anthropic API, run only when ANTHROPIC_API_KEY is set (it costs a few
// cents' worth of tokens at most): one prompt hook and one agent hook with the default model.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { emitHook } from '../test-support/hooks.ts';
import { llmRunner } from './llm-runner.ts';

const hasKey = (process.env['ANTHROPIC_API_KEY'] ?? '') !== '';
const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

const skipMessage = 'ANTHROPIC_API_KEY is not set: the live smoke tests against the Anthropic API are skipped';

describe('live Anthropic API', () => {
  test('a prompt hook gets a structured answer', async (context) => {
    if (!hasKey) return context.skip(skipMessage);
    const report = await emitHook(llmRunner(), {
      type: 'prompt',
      prompt: 'This is a connectivity test. Let the event proceed.',
      timeout_ms: 60_000,
    });
    expect(report.status, JSON.stringify(report)).toBe('ok');
    expect(report.decision?.decision).toBe('proceed');
    expect(report).toMatchObject({
      rounds: 1,
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
  }, 70_000);

  test('an agent hook uses a tool and answers in JSON', async (context) => {
    if (!hasKey) return context.skip(skipMessage);
    const report = await emitHook(
      llmRunner(),
      {
        type: 'agent',
        prompt:
          'Use the glob tool to check whether a file named package.json exists in the working directory. Block if it does not; otherwise proceed.',
        timeout_ms: 90_000,
      },
      { context: { cwd: packageDirectory } },
    );
    expect(report.status, JSON.stringify(report)).toBe('ok');
    expect(report.decision?.decision).toBe('proceed');
    expect(report['tool_calls']).toBeGreaterThan(0);
  }, 100_000);
});
