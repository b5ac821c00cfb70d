import { expect, test } from 'vitest';
import { runnerConformanceCases } from './runner-conformance.ts';
import { scriptedRunner } from './scripted-runner.ts';

// The scripted runner is the engine tests' stand-in, so it must honour the same contract as real runners.
for (const check of runnerConformanceCases({
  runner: scriptedRunner(),
  type: 'scripted',
  scenarios: {
    proceed: {},
    block: { decision: 'block', reason: 'scripted block' },
    fail: { fail: 'scripted failure' },
    slow: { delay_ms: 60_000 },
  },
})) {
  test(check.name, check.run, 15_000);
}

// A suite that cannot fail proves nothing: misbehaving runners must be caught.
test('the suite catches a runner that ignores its abort signal', async () => {
  const cases = runnerConformanceCases({
    runner: scriptedRunner(),
    type: 'scripted',
    scenarios: {
      proceed: {},
      block: { decision: 'block', reason: 'b' },
      fail: { fail: 'f' },
      slow: { delay_ms: 3_000, ignore_abort: true },
    },
    abortSettleMs: 300,
  });
  const settles = cases.find((check) => check.name.includes('settles promptly'))!;
  await expect(settles.run()).rejects.toThrow('did not settle within 300 ms');
});

test('the suite catches a runner that reports a failure as an answer', async () => {
  const cases = runnerConformanceCases({
    runner: scriptedRunner(),
    type: 'scripted',
    scenarios: { proceed: {}, block: { decision: 'block', reason: 'b' }, fail: {}, slow: { delay_ms: 60_000 } },
  });
  const fails = cases.find((check) => check.name.includes('cannot complete'))!;
  await expect(fails.run()).rejects.toThrow('conformance: status is ok');
});
