// HTTP hooks written in a Claude Code settings file, against a real server on 127.0.0.1: the input
// POSTed as the host gave it, headers interpolated only from allowedEnvVars, and a 2xx JSON body
// read as Claude Code's output format.
import { createHookEngine, loadConfig, type EmitOutcome } from '@hookline/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { answer, startHttpServer, type TestServer } from '../test-support/servers.ts';
import { httpRunner } from './index.ts';

let server: TestServer;
const routes: Record<string, (response: import('node:http').ServerResponse) => void> = {
  '/deny': answer(
    200,
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no network tools',
      },
    }),
  ),
  '/context': answer(
    200,
    JSON.stringify({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ticket ABC-1 is open' },
      systemMessage: 'context added',
    }),
  ),
  '/hookline-form': answer(200, '{"decision":"skip"}'),
  '/not-json': answer(200, '{oops'),
  '/down': answer(503, 'maintenance'),
  // Answers meant as decisions that cannot be honoured.
  '/trailing-comma': answer(
    200,
    '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",}}',
  ),
  '/upper-case': answer(200, '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "DENY"}}'),
  '/number': answer(200, '{"decision": 1}'),
  '/maybe': answer(200, '{"decision": "maybe"}'),
  '/nested': answer(200, '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": "rm -rf /"}}'),
  '/array': answer(200, '[{"decision": "block"}]'),
  '/huge-deny': answer(
    200,
    JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
      systemMessage: 'x'.repeat(4000),
    }),
  ),
};

beforeAll(async () => {
  server = await startHttpServer((request, response) =>
    (routes[request.path] ?? answer(418, 'unexpected path'))(response),
  );
});
afterAll(() => server.close());
afterEach(() => {
  delete process.env['HOOK_TOKEN'];
  delete process.env['OTHER_SECRET'];
});

async function emitClaude(
  hook: Record<string, unknown>,
  event: string,
  input: Record<string, unknown>,
  maxResponseBytes?: number,
): Promise<EmitOutcome> {
  const runner = httpRunner(maxResponseBytes === undefined ? {} : { maxResponseBytes });
  const settings = { hooks: { [event]: [{ hooks: [{ type: 'http', ...hook }] }] } };
  const config = loadConfig([{ text: JSON.stringify(settings), source: 'settings.json' }], { runners: [runner] });
  const engine = createHookEngine({ config, runners: [runner] });
  try {
    return await (
      await engine.emit(event, { session_id: 's1', hook_event_name: event, ...input })
    ).settled;
  } finally {
    await engine.close();
  }
}

describe('claude http hooks', () => {
  test('POSTs the input untouched; headers use only allowedEnvVars; a plain http:// url works as in Claude Code', async () => {
    process.env['HOOK_TOKEN'] = 'tok-123';
    process.env['OTHER_SECRET'] = 'must-not-leak';
    const input = { cwd: '/work', tool_name: 'WebFetch', tool_input: { url: 'https://example.org' } };
    const outcome = await emitClaude(
      {
        url: `${server.origin}/deny`,
        headers: { Authorization: 'Bearer $HOOK_TOKEN' },
        allowedEnvVars: ['HOOK_TOKEN'],
        timeout: 5,
      },
      'PreToolUse',
      input,
    );
    expect([outcome.decision, outcome.reason]).toEqual(['block', 'no network tools']);
    const request = server.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe('Bearer tok-123');
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({
      session_id: 's1',
      hook_event_name: 'PreToolUse',
      ...input,
    });
  });

  test('a header naming a variable not in allowedEnvVars is a config problem: the hook fails, nothing is sent', async () => {
    process.env['OTHER_SECRET'] = 'must-not-leak';
    const settings = {
      hooks: {
        Stop: [{ hooks: [{ type: 'http', url: `${server.origin}/x`, headers: { 'X-Key': '$OTHER_SECRET' } }] }],
      },
    };
    const config = loadConfig([{ text: JSON.stringify(settings, null, 2), source: 'settings.json' }], {
      runners: [httpRunner()],
    });
    expect(config.problems?.map((issue) => issue.message).join('\n')).toMatch(/OTHER_SECRET/);
    const sent = server.requests.length;
    const outcome = await emitClaude({ url: `${server.origin}/x`, headers: { 'X-Key': '$OTHER_SECRET' } }, 'Stop', {});
    expect(outcome.hooks[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/OTHER_SECRET/) });
    expect(server.requests.length).toBe(sent);
  });

  test('a 2xx body is read as Claude Code output: additionalContext and systemMessage', async () => {
    const outcome = await emitClaude({ url: `${server.origin}/context` }, 'UserPromptSubmit', { prompt: 'fix ABC-1' });
    expect(JSON.parse(JSON.stringify(outcome))).toMatchObject({
      decision: 'proceed',
      additional_context: ['ticket ABC-1 is open'],
      system_messages: ['context added'],
      warnings: [],
    });
  });

  test('a decision Claude Code does not know, or a body that is not JSON, fails the hook; on_error decides', async () => {
    const hookline = await emitClaude({ url: `${server.origin}/hookline-form` }, 'PreToolUse', { tool_name: 'Bash' });
    expect(hookline.decision).toBe('proceed');
    expect(hookline.hooks[0]).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('decision must be "block" (or PreToolUse\'s older "approve"), got "skip"'),
    });
    expect(hookline.warnings.join('\n')).toContain('got "skip"');
    const broken = await emitClaude({ url: `${server.origin}/not-json` }, 'PreToolUse', { tool_name: 'Bash' });
    expect(broken.decision).toBe('proceed');
    expect(broken.hooks[0]).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('starts like a JSON answer but is not valid JSON'),
    });
    for (const path of ['hookline-form', 'not-json']) {
      const closed = await emitClaude({ url: `${server.origin}/${path}`, on_error: 'block' }, 'PreToolUse', {
        tool_name: 'Bash',
      });
      expect([closed.decision, closed.hooks[0]?.status]).toEqual(['block', 'failed']);
    }
  });

  test('a non-2xx answer fails the hook (a non-blocking error); on_error "block" fails closed', async () => {
    const open = await emitClaude({ url: `${server.origin}/down` }, 'PreToolUse', { tool_name: 'Bash' });
    expect(open.decision).toBe('proceed');
    expect(open.hooks[0]).toMatchObject({ status: 'failed', http_status: 503 });
    const closed = await emitClaude({ url: `${server.origin}/down`, on_error: 'block' }, 'PreToolUse', {
      tool_name: 'Bash',
    });
    expect(closed.decision).toBe('block');
  });

  test.each([
    ['trailing-comma', /not valid JSON/],
    ['upper-case', /permissionDecision must be "allow", "deny" or "ask" \(lower case\), got "DENY"/],
    ['number', /decision must be "block".*got 1/],
    ['maybe', /got "maybe"/],
    ['nested', /updatedInput must be an object/],
    ['array', /JSON array/],
    ['huge-deny', /larger than 1000 bytes/],
  ])(
    '/%s: an answer that cannot be honoured fails the hook, on_error decides, the outcome warns',
    async (path, error) => {
      for (const policy of ['block', 'proceed'] as const) {
        const outcome = await emitClaude(
          { url: `${server.origin}/${path}`, on_error: policy },
          'PreToolUse',
          { tool_name: 'Bash' },
          1000,
        );
        expect([outcome.decision, outcome.hooks[0]?.status]).toEqual([policy, 'failed']);
        expect(outcome.hooks[0]?.error).toMatch(error);
        expect(outcome.warnings.join('\n')).toMatch(error);
      }
    },
  );
});
