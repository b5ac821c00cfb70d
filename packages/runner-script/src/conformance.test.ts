// The shared runner contract from @hookline/core/testing.
import { runnerConformanceCases, type ConformanceScenarios } from '@hookline/core/testing';
import { describe, test } from 'vitest';
import { scriptRunner } from './script-runner.ts';

const scenarios: ConformanceScenarios = {
  proceed: { script: 'return true' },
  block: { script: "return { decision: 'block', reason: 'conformance says no' }" },
  fail: { script: "throw new Error('conformance failure')" },
  // No timers exist inside an isolate: a promise that never settles waits until the deadline.
  slow: { script: 'await new Promise(() => {})' },
};

describe('conformance', () => {
  for (const check of runnerConformanceCases({ runner: scriptRunner(), type: 'script', scenarios })) {
    test(check.name, () => check.run(), 30_000);
  }
});

describe('conformance with a busy loop as the slow hook', () => {
  for (const check of runnerConformanceCases({
    runner: scriptRunner({ poolSize: 2 }),
    type: 'script',
    scenarios: { ...scenarios, slow: { script: 'for (;;) {}' } },
  })) {
    test(check.name, () => check.run(), 30_000);
  }
});
