// Prompt hooks against the real SDK and a local Messages API: answers, failures, retries, deadlines.
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { emitHook } from '../test-support/hooks.ts';
import {
  apiError,
  clientFor,
  decision,
  finalText,
  firstUserText,
  message,
  scripted,
  startMessagesApi,
  text,
} from '../test-support/messages-api.ts';
import { useMessagesApi } from '../test-support/use-messages-api.ts';
import { createHookEngine, loadConfig } from '@hookline/core';
import { llmRunner } from './llm-runner.ts';

const api = useMessagesApi();

const runner = () => llmRunner({ client: clientFor(api) });

describe('answers', () => {
  test('ok: true proceeds, with model, rounds and usage in the report', async () => {
    api.respond(scripted(decision(true)));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is the build allowed?' });
    expect(report).toMatchObject({
      status: 'ok',
      decision: { decision: 'proceed' },
      model: 'claude-haiku-5-5',
      rounds: 1,
      usage: { input_tokens: 100, output_tokens: 20 },
    });
    expect(report).not.toHaveProperty('error');
  });

  test('ok: false blocks with the model’s reason', async () => {
    api.respond(scripted(decision(false, 'deploys are frozen until Monday')));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is the build allowed?' });
    expect(report).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'deploys are frozen until Monday' },
    });
  });

  test('ok: false without a reason still blocks with an explanation', async () => {
    api.respond(scripted(decision(false)));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is the build allowed?' });
    expect(report.decision).toEqual({ decision: 'block', reason: 'the model answered ok: false without a reason' });
  });

  test('the request: system role, "Hook prompt:" with the context JSON, the forced hook_decision tool, the resolved model', async () => {
    api.respond(scripted(decision(true)));
    await emitHook(llmRunner({ client: clientFor(api), models: { judge: 'claude-opus-4-8' } }), {
      type: 'prompt',
      prompt: 'Check the node.',
      model: 'judge',
    });
    const [request] = api.requests;
    expect(request?.path).toBe('/v1/messages');
    expect(request?.body.model).toBe('claude-opus-4-8');
    expect(request?.body.system).toMatch(/hook evaluator for a workflow engine/);
    expect(firstUserText(request!)).toBe(
      'Hook prompt: Check the node.\n\nEvent context (JSON):\n{"event":"stage_start","run_id":"run-llm-test","workflow_name":"llm-tests","node_id":"build"}',
    );
    expect(request?.body.tool_choice).toEqual({ type: 'tool', name: 'hook_decision' });
    expect(request?.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['hook_decision']);
    expect(request?.headers['x-api-key']).toBe('sk-ant-local-test-key-0123456789');
  });

  test('a Claude Code settings file: $ARGUMENTS is where the input JSON goes, timeout in seconds, ok: false blocks Stop', async () => {
    api.respond(scripted(decision(false, 'the tests were not run')));
    const llm = runner();
    const settings = {
      hooks: {
        Stop: [
          {
            hooks: [{ type: 'prompt', prompt: 'Did the agent run the tests? Input: $ARGUMENTS. Answer.', timeout: 20 }],
          },
        ],
      },
    };
    const config = loadConfig([{ text: JSON.stringify(settings), source: 'settings.json' }], { runners: [llm] });
    expect(config.hooks[0]).toMatchObject({ type: 'prompt', timeoutMs: 20_000, onError: 'proceed' });
    const engine = createHookEngine({ config, runners: [llm] });
    const outcome = await engine.emit('Stop', { session_id: 's1', hook_event_name: 'Stop', stop_hook_active: false });
    await engine.close();
    expect([outcome.decision, outcome.reason]).toEqual(['block', 'the tests were not run']);
    expect(firstUserText(api.requests[0]!)).toBe(
      'Hook prompt: Did the agent run the tests? Input: {"session_id":"s1","hook_event_name":"Stop","stop_hook_active":false}. Answer.',
    );
  });

  test('a full model id passes through', async () => {
    api.respond(scripted(decision(true)));
    await emitHook(runner(), { type: 'prompt', prompt: 'Check.', model: 'claude-sonnet-4-6' });
    expect(api.requests[0]?.body.model).toBe('claude-sonnet-4-6');
  });
});

describe('unparseable answers', () => {
  test('prose instead of the tool call fails, and on_error (default proceed) decides', async () => {
    api.respond(scripted(finalText('Yes, this looks fine to me.')));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(
      /^unparseable answer: the model did not call hook_decision .*"Yes, this looks fine to me\."/,
    );
    expect(report.decision).toEqual({ decision: 'proceed', reason: report.error });
    expect(report).toMatchObject({ rounds: 1, usage: { input_tokens: 100, output_tokens: 20 } });
  });

  test('a tool call without a boolean ok fails', async () => {
    api.respond(scripted(message([{ type: 'tool_use', id: 'toolu_1', name: 'hook_decision', input: { ok: 'yes' } }])));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?', on_error: 'block' });
    expect(report).toMatchObject({ status: 'failed', decision: { decision: 'block' } });
    expect(report.error).toMatch(/^unparseable answer: expected \{"ok"/);
  });

  test('a malformed JSON body fails without retrying', async () => {
    api.respond(() => ({ kind: 'raw', text: '{"id": "msg_1", "content": [' }));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(/not valid JSON/);
    expect(api.requests).toHaveLength(1);
  });

  test('JSON that is not a Messages reply fails with what was wrong', async () => {
    api.respond(() => ({ kind: 'json', body: { hello: 'world' } }));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report.error).toMatch(/not a Messages API reply \(content: /);
  });
});

describe('API errors and retries', () => {
  test('400 fails at once with the status and the API’s message', async () => {
    api.respond(scripted(apiError(400, 'invalid_request_error', 'max_tokens: field required')));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report).toMatchObject({ status: 'failed', decision: { decision: 'proceed' } });
    expect(report.error).toBe(
      'the Anthropic API answered 400 invalid_request_error: max_tokens: field required (request-id req_local_test)',
    );
    expect(api.requests).toHaveLength(1);
  });

  test('500 then success is retried and proceeds; the report counts the retry', async () => {
    api.respond(scripted(apiError(500, 'api_error', 'internal'), decision(true)));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report).toMatchObject({ status: 'ok', decision: { decision: 'proceed' }, retries: 1, rounds: 1 });
    expect(api.requests).toHaveLength(2);
  });

  test('429 with retry-after is retried after the server’s delay, within the deadline', async () => {
    api.respond(
      scripted(apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '1' }), decision(false, 'no')),
    );
    const started = performance.now();
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?', timeout_ms: 10_000 });
    expect(report).toMatchObject({ status: 'ok', decision: { decision: 'block', reason: 'no' }, retries: 1 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  test('429 whose retry-after is past the deadline fails at once instead of waiting', async () => {
    api.respond(scripted(apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '30' })));
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?', timeout_ms: 5_000 });
    // Failed, not timed_out: had the runner waited for the retry, the 5 s deadline would have ended it first.
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(
      /^the Anthropic API answered 429 rate_limit_error: slow down .*; not retried: the retry was due in 30\.0 s, after the hook's deadline/,
    );
    expect(api.requests).toHaveLength(1);
  });

  test('persistent 529 gives up after maxRetries and says so', async () => {
    api.respond(() => apiError(529, 'overloaded_error', 'Overloaded', { 'retry-after-ms': '10' }));
    const report = await emitHook(llmRunner({ client: clientFor(api), maxRetries: 2 }), {
      type: 'prompt',
      prompt: 'Is it fine?',
    });
    expect(report.error).toMatch(/answered 529 overloaded_error: Overloaded .*\(after 2 retries\)$/);
    expect(api.requests).toHaveLength(3);
  });

  test('x-should-retry: false is obeyed', async () => {
    api.respond(() => apiError(503, 'api_error', 'down', { 'x-should-retry': 'false' }));
    await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?' });
    expect(api.requests).toHaveLength(1);
  });

  test('a refused connection fails with the cause', async () => {
    const closed = await startMessagesApi();
    const url = closed.url;
    await closed.close();
    const Anthropic = (await import('@anthropic-ai/sdk')).default;
    const client = new Anthropic({ apiKey: 'sk-ant-unused-0123456789', baseURL: url, maxRetries: 0 });
    const report = await emitHook(llmRunner({ client, maxRetries: 1 }), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(/^could not reach the Anthropic API: .*ECONNREFUSED.*\(after 1 retry\)$/);
  });
});

describe('deadlines', () => {
  test('a response that never comes is timed_out, and the request is aborted on the wire', async () => {
    api.respond(() => ({ kind: 'hang' }));
    const aborted = api.nextAbort();
    const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?', timeout_ms: 500 });
    expect(report).toMatchObject({
      status: 'timed_out',
      error: 'hook timed out after 500 ms',
      decision: { decision: 'proceed' },
    });
    const request = await aborted;
    expect(request.aborted).toBe(true);
  });
});

describe('credentials', () => {
  // An empty config directory: the SDK's credential chain (profiles, config files) finds nothing either.
  beforeEach(() => {
    vi.stubEnv('ANTHROPIC_CONFIG_DIR', `${tmpdir()}/hookline-no-anthropic-config`);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test('without a client or credentials the hook fails (fail-open) and names the fix, sending nothing', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    vi.stubEnv('ANTHROPIC_AUTH_TOKEN', undefined);
    vi.stubEnv('ANTHROPIC_PROFILE', undefined);
    vi.stubEnv('ANTHROPIC_BASE_URL', api.url);
    const report = await emitHook(llmRunner(), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report).toMatchObject({
      status: 'failed',
      error: 'set ANTHROPIC_API_KEY (or pass a client to llmRunner)',
      decision: { decision: 'proceed' },
    });
    expect(api.requests).toHaveLength(0);
  });

  test('a host’s client without credentials is named as the cause', async () => {
    const Anthropic = (await import('@anthropic-ai/sdk')).default;
    vi.stubEnv('ANTHROPIC_PROFILE', undefined);
    const client = new Anthropic({ apiKey: null, authToken: null, baseURL: api.url, maxRetries: 0 });
    const report = await emitHook(llmRunner({ client }), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report).toMatchObject({
      status: 'failed',
      error: 'the client passed to llmRunner has no credentials: give it an apiKey or authToken',
    });
  });

  test('the environment’s key and base URL are used by the client made on first use', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-from-environment-0123456789');
    vi.stubEnv('ANTHROPIC_BASE_URL', api.url);
    api.respond(scripted(decision(true)));
    const report = await emitHook(llmRunner(), { type: 'prompt', prompt: 'Is it fine?' });
    expect(report.status).toBe('ok');
    expect(api.requests[0]?.headers['x-api-key']).toBe('sk-ant-from-environment-0123456789');
  });

  test('the API key never appears in a report, even when an error echoes it', async () => {
    const key = 'sk-ant-secret-echo-0123456789';
    api.respond((request) =>
      apiError(401, 'authentication_error', `invalid x-api-key ${String(request.headers['x-api-key'])}`),
    );
    const report = await emitHook(llmRunner({ client: clientFor(api, { apiKey: key }) }), {
      type: 'prompt',
      prompt: 'Is it fine?',
    });
    expect(report.status).toBe('failed');
    expect(JSON.stringify(report)).not.toContain(key);
    expect(report.error).toContain('[redacted]');
  });
});

test('text blocks around the tool call do not matter', async () => {
  api.respond(
    scripted(
      message([
        text('Let me decide.'),
        { type: 'tool_use', id: 'toolu_9', name: 'hook_decision', input: { ok: true, reason: 'fine' } },
      ]),
    ),
  );
  const report = await emitHook(runner(), { type: 'prompt', prompt: 'Is it fine?' });
  expect(report.decision).toEqual({ decision: 'proceed', reason: 'fine' });
});
