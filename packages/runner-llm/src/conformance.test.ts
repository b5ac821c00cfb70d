// Core's runner conformance suite for both types, with the real SDK against a local Messages API
// that picks its answer from the hook prompt: proceed, block, fail (400 or a malformed body), slow.
import { runnerConformanceCases, type ConformanceScenarios } from '@hookline/core/testing';
import { localSandbox } from '@hookline/runner-command';
import { afterAll, describe, test } from 'vitest';
import {
  apiError,
  clientFor,
  decision,
  finalText,
  firstUserText,
  startMessagesApi,
  type MessagesApi,
  type Reply,
} from '../test-support/messages-api.ts';
import { llmRunner } from './llm-runner.ts';

// Started at load: the suite takes the runner (and so the client and its base URL) when it is built.
const api: MessagesApi = await startMessagesApi((request): Reply => {
  const prompt = firstUserText(request);
  // A prompt hook forces the hook_decision tool; an agent answers with JSON text.
  const isPromptHook = request.body?.tool_choice?.name === 'hook_decision';
  if (prompt.includes('conformance: proceed')) return isPromptHook ? decision(true) : finalText('{"ok": true}');
  if (prompt.includes('conformance: block'))
    return isPromptHook
      ? decision(false, 'conformance says no')
      : finalText('{"ok": false, "reason": "conformance says no"}');
  if (prompt.includes('conformance: fail'))
    return isPromptHook
      ? apiError(400, 'invalid_request_error', 'conformance failure')
      : { kind: 'raw', text: '{"content": [' };
  if (prompt.includes('conformance: slow')) return { kind: 'hang' };
  return apiError(500, 'api_error', `unexpected prompt: ${prompt}`);
});
afterAll(() => api.close());

const scenarios: ConformanceScenarios = {
  proceed: { prompt: 'conformance: proceed' },
  block: { prompt: 'conformance: block' },
  fail: { prompt: 'conformance: fail' },
  slow: { prompt: 'conformance: slow' },
};

for (const type of ['prompt', 'agent'] as const) {
  describe(`${type} conformance`, () => {
    for (const check of runnerConformanceCases({ runner: llmRunner({ client: clientFor(api) }), type, scenarios })) {
      test(check.name, () => check.run(), 20_000);
    }
  });
}

// Agent hooks use the sandbox (their shell runs in it), so the suite runs once more through the local provider.
describe('agent conformance in the local sandbox', () => {
  for (const check of runnerConformanceCases({
    runner: llmRunner({ client: clientFor(api) }),
    type: 'agent',
    scenarios,
    sandbox: localSandbox(),
  })) {
    test(check.name, () => check.run(), 20_000);
  }
});
