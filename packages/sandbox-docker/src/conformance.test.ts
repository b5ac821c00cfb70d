// Core's shared runner contract, with the command runner's hooks running in the docker sandbox.
import { runnerConformanceCases, type ConformanceScenarios } from '@hookline/core/testing';
import { commandRunner } from '@hookline/runner-command';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { testSandbox } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';
import type { DockerSandboxSession } from './docker-session.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'conformance.test.ts');

const scenarios: ConformanceScenarios = {
  proceed: { command: 'cat > /dev/null; exit 0' },
  block: { command: `echo '{"decision":"block","reason":"conformance says no"}'` },
  // A NUL byte cannot reach exec(2): the sandbox refuses the command, and the runner reports it failed.
  fail: { command: 'exit 0\u0000' },
  slow: { command: 'sleep 300' },
};

describe.skipIf(!probe.available)('conformance of the command runner in the docker sandbox', () => {
  const sandbox = testSandbox();
  // The suite closes an engine 200 ms after an emit and expects the hook to be running by then; a
  // cold container start takes 100–400 ms on a busy 2-CPU machine. Holding a session of the suite's
  // run keeps its container warm — engines opening that run share it, as every later hook of a run
  // does — so the suite tests the runner, and lifecycle.test.ts tests cold starts.
  let warm: DockerSandboxSession | undefined;
  beforeAll(async () => {
    warm = await sandbox.doOpen('conformance-run', new AbortController().signal);
  });
  afterAll(async () => {
    await warm?.dispose();
    await sandbox.doClose();
  });

  for (const check of runnerConformanceCases({ runner: commandRunner(), type: 'command', scenarios, sandbox })) {
    test(check.name, () => check.run(), 60_000);
  }
});
