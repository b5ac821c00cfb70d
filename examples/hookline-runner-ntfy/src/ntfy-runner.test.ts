import { ConfigError, createHookEngine, loadConfig } from '@hookline/core';
import { runnerConformanceCases } from '@hookline/core/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startNtfyServer, type NtfyServer } from '../test-support/ntfy-server.ts';
import { ntfyRunner } from './index.ts';

let server: NtfyServer;
beforeAll(async () => {
  server = await startNtfyServer();
});
afterAll(async () => {
  await server.close();
});

describe('conformance', () => {
  // The scenarios read the server URL lazily: the server starts in beforeAll.
  const at = (topic: string, extra: Record<string, unknown> = {}) => ({
    get server() {
      return server.url;
    },
    topic,
    ...extra,
  });
  for (const check of runnerConformanceCases({
    runner: ntfyRunner(),
    type: 'ntfy',
    scenarios: {
      proceed: at('ok'),
      block: at('ok', { decision: 'block', reason: 'paged the on-call; deploys wait for approval' }),
      fail: at('fail'),
      slow: at('slow'),
    },
  })) {
    test(check.name, check.run, 20_000);
  }
});

describe('ntfy hooks', () => {
  const load = (hook: string) => loadConfig([{ source: 'hookline.toml', text: hook }], { runners: [ntfyRunner()] });

  test('publishes the notification as JSON, with the context filled into title and message', async () => {
    const config = load(`
[[hooks]]
event = "run_failed"
type = "ntfy"
server = "${server.url}"
topic = "ci-alerts"
title = "{workflow_name} failed"
message = "run {run_id} failed at {node_id}"
priority = "high"
tags = ["rotating_light"]
`);
    const engine = createHookEngine({ config, runners: [ntfyRunner()] });
    const outcome = await (
      await engine.emit('run_failed', { run_id: 'r7', workflow_name: 'ship', node_id: 'deploy' })
    ).settled;
    await engine.close();
    expect(outcome.hooks[0]).toMatchObject({ name: 'run_failed:ci-alerts', status: 'ok', delivered_to: 'ci-alerts' });
    expect(server.received.at(-1)).toEqual({
      path: '/',
      body: {
        topic: 'ci-alerts',
        title: 'ship failed',
        message: 'run r7 failed at deploy',
        priority: 4,
        tags: ['rotating_light'],
      },
    });
  });

  test('refuses plain http to another machine, and bad keys, with their lines', () => {
    let caught: unknown;
    try {
      load(`
[[hooks]]
event = "run_failed"
type = "ntfy"
topic = "has spaces"
priorty = 4

[[hooks]]
event = "run_failed"
type = "ntfy"
topic = "alerts"
server = "http://ntfy.example.com"
`);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const messages = (caught as ConfigError).issues.map(
      (issue) => `${issue.line}: ${issue.message} ${issue.fix ?? ''}`,
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^5: .*topic.*letters, digits/),
        expect.stringMatching(/^12: .*https:\/\/ URL \(http:\/\/ only for localhost\)/),
        expect.stringMatching(/^6: unknown key `priorty`.*did you mean `priority`/),
      ]),
    );
  });
});
