// The shared runner contract from @hookline/core/testing, run twice: on the host and in the local sandbox.
import { runnerConformanceCases, type ConformanceScenarios } from '@hookline/core/testing';
import { describe, test } from 'vitest';
import { commandRunner } from './command-runner.ts';
import { localSandbox } from './local-sandbox.ts';

const scenarios: ConformanceScenarios = {
  proceed: { command: 'cat > /dev/null; exit 0' },
  block: { command: `echo '{"decision":"block","reason":"conformance says no"}'` },
  // The suite can only vary hook keys, and a command hook fails for reasons outside its keys (a missing
  // shell, a missing cwd). A NUL byte is the one key-level cause: exec(2) cannot take it, so the process
  // really cannot be started and the runner reports it `failed` through its ordinary path.
  fail: { command: 'exit 0\u0000' },
  slow: { command: 'sleep 300' },
};

describe('conformance on the host (sandbox = false)', () => {
  for (const check of runnerConformanceCases({ runner: commandRunner(), type: 'command', scenarios })) {
    test(check.name, () => check.run(), 30_000);
  }
});

describe('conformance in the local sandbox', () => {
  for (const check of runnerConformanceCases({ runner: commandRunner(), type: 'command', scenarios, sandbox: localSandbox() })) {
    test(check.name, () => check.run(), 30_000);
  }
});
