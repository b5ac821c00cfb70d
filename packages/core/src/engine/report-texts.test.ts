// Reasons, errors and warnings are cut after every runner, so no answer can make an outcome unprintable.
import * as v from 'valibot';
import { expect, test } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { MAX_REASON_CHARACTERS } from '../decisions/clip-text.ts';
import { defineRunner, type RunResult } from '../plugins/runner.ts';
import { createHookEngine } from './create-hook-engine.ts';

const context = { run_id: 'run-1', workflow_name: 'ci' };
const HUGE = 10_000_000;

/** A runner as a third party writes it: it answers whatever its hook's `answer` names. */
function engineAnswering(answers: Record<string, () => RunResult>) {
  const runner = defineRunner({
    name: 'third-party',
    types: {
      loud: {
        options: v.object({}),
        defaultTimeoutMs: 5_000,
        defaultOnError: 'block',
        usesSandbox: false,
        doRun: async (hook) => answers[hook.name]!(),
      },
    },
  });
  const text = Object.keys(answers)
    // on_error = "proceed": a failed hook would otherwise block and skip the ones after it.
    .map((name) => `[[hooks]]\nname = "${name}"\nevent = "stage_start"\ntype = "loud"\non_error = "proceed"\n`)
    .join('\n');
  return createHookEngine({
    config: loadConfig([{ text, source: 'test.toml' }], { runners: [runner] }),
    runners: [runner],
  });
}

test('a huge reason, error, warning or thrown message is cut to one marked limit', async () => {
  const engine = engineAnswering({
    reason: () => ({
      status: 'ok',
      decision: { decision: 'skip', reason: 'r'.repeat(HUGE) },
      warnings: ['w'.repeat(HUGE)],
    }),
    error: () => ({ status: 'failed', error: 'e'.repeat(HUGE) }),
    thrown: () => {
      throw new Error('t'.repeat(HUGE));
    },
  });
  try {
    const outcome = await engine.emit('stage_start', context);
    const marker = `… (cut at ${MAX_REASON_CHARACTERS} characters)`;
    const [reason, error, thrown] = outcome.hooks;
    expect(reason?.decision?.reason).toBe(`${'r'.repeat(MAX_REASON_CHARACTERS)}${marker}`);
    expect(reason?.warnings).toEqual([`${'w'.repeat(MAX_REASON_CHARACTERS)}${marker}`]);
    expect(error).toMatchObject({ status: 'failed', error: `${'e'.repeat(MAX_REASON_CHARACTERS)}${marker}` });
    expect(error?.decision?.reason).toBe(error?.error);
    expect(thrown?.error).toMatch(
      new RegExp(
        `^runner "third-party" threw: t{${MAX_REASON_CHARACTERS - 'runner "third-party" threw: '.length}}… \\(cut at 4096 characters\\)$`,
      ),
    );
    // The merged outcome carries the cut reason of the hook that decided it.
    expect(outcome).toMatchObject({ decision: 'skip', decided_by: 'reason', reason: reason?.decision?.reason });
    // Nine texts in all (each cut one appears twice, the failures once more in the outcome's warnings).
    expect(JSON.stringify(outcome).length).toBeLessThan(10 * (MAX_REASON_CHARACTERS + 100));
  } finally {
    await engine.close();
  }
});

test('a text at the limit is kept whole, and a cut never splits a surrogate pair', async () => {
  const atLimit = 'a'.repeat(MAX_REASON_CHARACTERS);
  const straddling = `${'a'.repeat(MAX_REASON_CHARACTERS - 1)}😀tail`;
  const engine = engineAnswering({
    whole: () => ({ status: 'ok', decision: { decision: 'proceed', reason: atLimit } }),
    emoji: () => ({ status: 'ok', decision: { decision: 'proceed', reason: straddling } }),
  });
  try {
    const outcome = await engine.emit('stage_start', context);
    expect(outcome.hooks[0]?.decision?.reason).toBe(atLimit);
    expect(outcome.hooks[1]?.decision?.reason).toBe(
      `${'a'.repeat(MAX_REASON_CHARACTERS - 1)}… (cut at 4096 characters)`,
    );
  } finally {
    await engine.close();
  }
});
