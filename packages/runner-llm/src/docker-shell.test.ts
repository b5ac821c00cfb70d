// The agent's shell through a docker sandbox session. @hookline/sandbox-docker is a sibling package
// (not a dependency: runner-llm only sees a SandboxSession), so it is loaded from the workspace when
// present. Without it, or without a Docker engine, the test is skipped with the reason — except under
// CI=true or HOOKLINE_REQUIRE_DOCKER=1, where a present package and a missing engine is a failure.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SandboxProvider } from '@hookline/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { dockerEngine, localImage } from '../test-support/docker-engine.ts';
import { emitHook } from '../test-support/hooks.ts';
import { clientFor, finalText, message, scripted, startMessagesApi, toolResults, toolUse, type MessagesApi } from '../test-support/messages-api.ts';
import { llmRunner } from './llm-runner.ts';

const packageDirectory = fileURLToPath(new URL('../../sandbox-docker/', import.meta.url));
const required = process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_DOCKER'] === '1';
// Images the docker sandbox's own tests use or default to; the sandbox never pulls.
const imageCandidates = [process.env['HOOKLINE_DOCKER_TEST_IMAGE'], 'hookline-test/busybox:latest', 'busybox:stable'].filter((image) => image !== undefined && image !== '') as string[];

let api: MessagesApi;
beforeAll(async () => {
  api = await startMessagesApi();
});
afterAll(() => api.close());

test('agent shell runs inside the run’s docker container when the hook is sandboxed', async (context) => {
  const entry = [`${packageDirectory}src/index.ts`, `${packageDirectory}dist/index.js`].find((file) => existsSync(file));
  if (!existsSync(`${packageDirectory}package.json`) || entry === undefined) {
    return context.skip(`@hookline/sandbox-docker is not in this workspace, or has no entry point yet (${packageDirectory}); the docker shell test runs once it has`);
  }
  const engine = await dockerEngine();
  if (!engine.ok) {
    const message = `no Docker engine answers (${engine.reason})`;
    if (required) throw new Error(`${message}, and @hookline/sandbox-docker is present under CI=true or HOOKLINE_REQUIRE_DOCKER=1: start a Docker engine or set DOCKER_HOST`);
    return context.skip(`${message}; set HOOKLINE_REQUIRE_DOCKER=1 to make this a failure`);
  }
  const image = await localImage(imageCandidates);
  if (image === undefined) {
    const message = `none of the images ${imageCandidates.join(', ')} is present locally (the docker sandbox never pulls)`;
    if (required) throw new Error(`${message}: build one (see packages/sandbox-docker's tests) or name one in HOOKLINE_DOCKER_TEST_IMAGE`);
    return context.skip(message);
  }
  const docker = (await import(/* @vite-ignore */ entry)) as { dockerSandbox?: (settings?: Record<string, unknown>) => SandboxProvider };
  expect(typeof docker.dockerSandbox, '@hookline/sandbox-docker exports dockerSandbox()').toBe('function');

  const shell = toolUse('shell', { command: 'echo "inside uid=$(id -u)"; test -e /.dockerenv && echo dockerenv' });
  api.respond(scripted(message([shell]), finalText('{"ok": true}')));
  const report = await emitHook(llmRunner({ client: clientFor(api) }), { type: 'agent', prompt: 'Where am I?' }, { sandbox: docker.dockerSandbox!({ image }) });
  expect(report.status, JSON.stringify(report)).toBe('ok');
  const [result] = toolResults(api.requests[1]);
  expect(result?.content).toMatch(/^exit code 0 \(ran in the docker session\)\nstdout:\ninside uid=(?!0\n)\d+\n/);
}, 120_000);
