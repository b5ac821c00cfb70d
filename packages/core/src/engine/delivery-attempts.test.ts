import * as v from 'valibot';
import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import {
  defineRunner,
  type DeliveryCall,
  type DeliveryVerdict,
  type Runner,
  type RunResult,
} from '../plugins/runner.ts';
import { memoryJournal, type MemoryJournal } from '../testing/memory-journal.ts';
import { createHookEngine, type HookEngine } from './create-hook-engine.ts';

// A runner whose hooks answer from a script of verdicts, one per call, and record what they were given.
function verdictRunner(script: Record<string, Array<DeliveryVerdict | undefined>>) {
  const calls: Array<{ hook: string; delivery: DeliveryCall | undefined }> = [];
  const runner = defineRunner({
    name: 'verdict-runner',
    types: {
      deliver: {
        options: v.object({ target: v.string() }),
        defaultTimeoutMs: 5_000,
        defaultOnError: 'proceed',
        usesSandbox: false,
        identity: (options) => options.target,
        doRun(hook, call): RunResult {
          calls.push({ hook: hook.name, delivery: call.delivery });
          const delivery = script[hook.name]?.shift();
          if (delivery === undefined)
            return { status: 'ok', decision: { decision: 'proceed' }, details: { http_status: 200 } };
          return { status: 'failed', error: delivery.reason, details: { http_status: 503 }, delivery };
        },
      },
    },
  });
  return { runner, calls };
}

const engines: HookEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

function engineWith(journal: MemoryJournal, runner: Runner, extra = ''): HookEngine {
  const toml = `[[hooks]]\nname = "notify"\nevent = "stage_complete"\ntype = "deliver"\ntarget = "https://a.test/hook"\ndurable = true\n${extra}`;
  const config = loadConfig([{ text: toml, source: 'test.toml' }], { runners: [runner] });
  const engine = createHookEngine({ config, runners: [runner], journal, journalKey: false });
  engines.push(engine);
  return engine;
}

const context = { run_id: 'run-1', workflow_name: 'ci' };
const retry = (afterMs: number, counted = true): DeliveryVerdict => ({
  next: 'retry',
  afterMs,
  counted,
  reason: 'answered 503',
});

describe('delivery verdicts of durable hooks', () => {
  test('a retry keeps the entry with the attempt, releases it for later, and the next attempt has the same message key; a hook done earlier is not run again', async () => {
    const journal = memoryJournal();
    const { runner, calls } = verdictRunner({ notify: [retry(0), retry(50, false)] });
    const engine = engineWith(
      journal,
      runner,
      '[[hooks]]\nname = "audit"\nevent = "stage_complete"\ntype = "deliver"\ntarget = "https://b.test/audit"\ndurable = true\n',
    );
    const first = await (await engine.emit('stage_complete', context)).settled;
    expect(first.hooks.map((hook) => hook.status)).toEqual(['failed', 'ok']);
    expect(journal.entries).toHaveLength(1);
    const [entry] = journal.entries;
    expect(
      entry?.deliveries?.map((attempt) => [attempt.hook, attempt.outcome, attempt.httpStatus, attempt.target]),
    ).toEqual([
      ['notify', 'retry', 503, 'https://a.test/hook'],
      ['audit', 'done', 200, 'https://b.test/audit'],
    ]);
    expect(entry?.lastError).toBe('"notify": answered 503');

    // A deferral (not counted) keeps no attempt; then it is delivered, and the entry is cleared.
    await engine.resume();
    expect(journal.entries[0]?.deliveries).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const resumed = await engine.resume();
    expect(
      resumed.ran[0]?.outcome.hooks.map((hook) => [
        hook.name,
        hook.status,
        hook.skipped_because?.startsWith('done on an earlier attempt'),
      ]),
    ).toEqual([
      ['notify', 'ok', undefined],
      ['audit', 'skipped', true],
    ]);
    expect(journal.entries).toEqual([]);
    const notifies = calls.filter((call) => call.hook === 'notify').map((call) => call.delivery);
    expect(notifies.map((delivery) => delivery?.attempt)).toEqual([1, 2, 2]);
    expect(new Set(notifies.map((delivery) => delivery?.messageKey)).size).toBe(1);
    expect(calls.filter((call) => call.hook === 'audit')).toHaveLength(1);
  });

  test('a hook given up on dead-letters the entry with every attempt, disables its target for later entries, and a retry by hand starts its schedule again', async () => {
    const journal = memoryJournal();
    const { runner, calls } = verdictRunner({
      notify: [retry(0), { next: 'dead', reason: 'answered 410 Gone', disable: true }],
    });
    const engine = engineWith(journal, runner);
    await (
      await engine.emit('stage_complete', context)
    ).settled;
    await engine.resume();
    const [dead] = journal.entries;
    expect(dead?.deadLetteredAt).toBeDefined();
    expect(dead?.lastError).toBe('"notify" given up: answered 410 Gone');
    expect(dead?.deliveries?.map((attempt) => attempt.outcome)).toEqual(['retry', 'dead']);
    expect((await journal.disabledTargets?.())?.map((target) => target.target)).toEqual(['https://a.test/hook']);

    // Another message to the disabled target is given up on without a request.
    const later = await (await engine.emit('stage_complete', { ...context, run_id: 'run-2' })).settled;
    expect(later.hooks[0]?.status).toBe('skipped');
    expect(later.hooks[0]?.skipped_because).toContain('https://a.test/hook is disabled since');
    expect(calls).toHaveLength(2);
    expect(journal.entries.filter((entry) => entry.deadLetteredAt !== undefined)).toHaveLength(2);

    // Re-enabled and retried by hand: attempt 1 of a fresh schedule, same message key.
    await journal.doEnableTarget?.('https://a.test/hook');
    await journal.doRetry?.(dead!.id);
    await new Promise((resolve) => setTimeout(resolve, 2_100)); // the engine reads disabled targets at most every 2 s
    await engine.resume();
    expect(calls.map((call) => call.delivery?.attempt)).toEqual([1, 2, 1]);
    expect(calls[2]?.delivery?.messageKey).toBe(calls[0]?.delivery?.messageKey);
    expect(journal.entries.map((entry) => entry.id)).not.toContain(dead!.id);
  });

  test("a delivery the engine's deadline ends is retried when its type says so (deadlineVerdict), and done when it does not", async () => {
    const journal = memoryJournal();
    const stalled = (deadlineVerdict: boolean) =>
      defineRunner({
        name: 'stalled-runner',
        types: {
          deliver: {
            options: v.object({ target: v.string() }),
            defaultTimeoutMs: 50,
            defaultOnError: 'proceed',
            usesSandbox: false,
            // Never answers before the deadline: the engine's timeout decides.
            doRun: (_hook, call) =>
              new Promise<RunResult>((resolve) =>
                call.signal.addEventListener('abort', () => resolve({ status: 'failed', error: 'stopped' })),
              ),
            ...(deadlineVerdict ? { deadlineVerdict: () => retry(60_000) } : {}),
          },
        },
      });
    const retried = await (await engineWith(journal, stalled(true)).emit('stage_complete', context)).settled;
    expect(retried.hooks[0]).toMatchObject({ status: 'timed_out', delivery: { next: 'retry' } });
    expect(journal.entries[0]?.deliveries?.map((attempt) => [attempt.outcome, attempt.status])).toEqual([
      ['retry', 'timed_out'],
    ]);

    const other = memoryJournal();
    const done = await (await engineWith(other, stalled(false)).emit('stage_complete', context)).settled;
    expect(done.hooks[0]?.status).toBe('timed_out');
    expect(other.entries).toEqual([]);
  });

  test('without a verdict an entry is cleared as before, with no attempt written', async () => {
    const journal = memoryJournal();
    const { runner, calls } = verdictRunner({});
    const engine = engineWith(journal, runner);
    await (
      await engine.emit('stage_complete', context)
    ).settled;
    expect(journal.entries).toEqual([]);
    expect(calls[0]?.delivery).toEqual({
      messageKey: expect.stringContaining('\u00001\u0000notify'),
      attempt: 1,
      firstAttemptAt: expect.any(Number),
    });
  });
});
