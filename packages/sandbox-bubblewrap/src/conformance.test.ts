// Core's shared runner contract, with the command runner's hooks running in the bubblewrap sandbox.
import { runnerConformanceCases, type ConformanceScenarios } from '@hookline/core/testing';
import { commandRunner } from '@hookline/runner-command';
import { describe, test } from 'vitest';
import { bubblewrapProblem, reportBubblewrapProblem } from '../test-support/bubblewrap-probe.ts';
import { bubblewrapSandbox } from './bubblewrap-sandbox.ts';

const problem = bubblewrapProblem();
reportBubblewrapProblem(problem, 'conformance.test.ts');

const scenarios: ConformanceScenarios = {
  proceed: { command: 'cat > /dev/null; exit 0' },
  block: { command: `echo '{"decision":"block","reason":"conformance says no"}'` },
  // A NUL byte cannot reach exec(2): the command cannot start, and the runner reports it failed.
  fail: { command: 'exit 0\u0000' },
  slow: { command: 'sleep 300' },
};

describe.skipIf(problem !== undefined)('conformance of the command runner in the bubblewrap sandbox', () => {
  for (const check of runnerConformanceCases({
    runner: commandRunner(),
    type: 'command',
    scenarios,
    sandbox: bubblewrapSandbox(),
  })) {
    test(check.name, () => check.run());
  }
});
