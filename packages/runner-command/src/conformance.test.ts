// The shared runner contract from @hookline/core/testing, run twice: on the host and in the local sandbox.
import { runnerConformanceCases, type ConformanceScenarios } from '@hookline/core/testing';
import { describe, test } from 'vitest';
import { commandRunner } from './command-runner.ts';
import { localSandbox } from './local-sandbox.ts';

const scenarios: ConformanceScenarios = {
  proceed: { command: 'cat > /dev/null; exit 0' },
  block: { command: `echo '{"decision":"block","reason":"conformance says no"}'` },
  // A command hook fails for reasons outside its keys: here, a cwd that does not exist (scenarioContext).
  fail: { command: 'exit 0' },
  slow: { command: 'sleep 300' },
};
const scenarioContext = { fail: { cwd: '/nonexistent/hookline-conformance' } };

describe('conformance on the host (sandbox = false)', () => {
  for (const check of runnerConformanceCases({
    runner: commandRunner(),
    type: 'command',
    scenarios,
    scenarioContext,
  })) {
    test(check.name, () => check.run(), 30_000);
  }
});

describe('conformance in the local sandbox', () => {
  for (const check of runnerConformanceCases({
    runner: commandRunner(),
    type: 'command',
    scenarios,
    scenarioContext,
    sandbox: localSandbox(),
  })) {
    test(check.name, () => check.run(), 30_000);
  }
});
