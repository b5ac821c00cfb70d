import { describe, expect, test } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { JournalError } from '../errors/journal-error.ts';
import { PluginError } from '../errors/plugin-error.ts';
import { defineJournal, type Journal } from '../plugins/journal.ts';
import { journalConformanceCases } from '../testing/journal-conformance.ts';
import { memoryJournal, type MemoryJournal } from '../testing/memory-journal.ts';
import { scriptedRunner } from '../testing/scripted-runner.ts';
import { createHookEngine } from './create-hook-engine.ts';
import { scriptedEngines, scriptedHook, TEST_JOURNAL_KEY } from '../../test-support/scripted-engines.ts';
import { createJournalSeal } from '../plugins/journal-seal.ts';

const context = { run_id: 'run-1', workflow_name: 'ci', node_id: 'deploy' };
const { engineFor, closeAfterTest } = scriptedEngines();

const hook = (name: string, body: string, event = 'stage_complete') => scriptedHook(name, body, event);

describe('memory journal', () => {
  for (const check of journalConformanceCases({ create: (settings) => memoryJournal(settings) }))
    test(check.name, check.run);
});

describe('durable hooks', () => {
  test('a config with durable hooks needs a journal, and says which one to pass', () => {
    expect(() => engineFor(hook('notify', 'durable = true'))).toThrow(PluginError);
    expect(() => engineFor(hook('notify', 'durable = true'))).toThrow(
      'Hook "notify" is durable (journaled before emit returns: durable = true), but no journal was passed to createHookEngine: pass journal: sqliteJournal({ path: ".hookline/journal.db" }) from @hookline/journal-sqlite (or another Journal), or set durable = false on them.',
    );
    // A disabled durable hook needs nothing.
    expect(() => engineFor(hook('notify', 'durable = true\nenabled = false'))).not.toThrow();
  });

  test('the entry is journaled before emit returns and cleared once the durable hooks ran', async () => {
    const journal = memoryJournal();
    const { engine, runner } = engineFor(
      hook('notify', 'durable = true\ndelay_ms = 50') + hook('plain', 'delay_ms = 10'),
      { journal },
    );
    const outcome = await engine.emit('stage_complete', context);
    expect(outcome.hooks.map((report) => report.status)).toEqual(['pending', 'pending']);
    expect(journal.entries).toEqual([
      expect.objectContaining({
        preset: 'arc',
        event: 'stage_complete',
        context: { event: 'stage_complete', ...context },
        hooks: ['notify'],
        attempts: 1,
        owner: expect.stringMatching(/^engine-/),
      }),
    ]);
    const settled = await outcome.settled;
    expect(settled.hooks.map((report) => report.status)).toEqual(['ok', 'ok']);
    expect(settled.warnings).toEqual([]);
    expect(journal.entries).toEqual([]);
    expect(runner.calls.map((call) => call.hook).sort()).toEqual(['notify', 'plain']);
  });

  test("durableHooks: 'record' journals durable hooks for other engines and runs only the rest; resume({ signal }) runs them as they come, until the signal aborts", async () => {
    const journal = memoryJournal();
    const config = hook('notify', 'durable = true') + hook('plain', '');
    const emitter = engineFor(config, { journal, durableHooks: 'record' });
    const emitted = await (await emitter.engine.emit('stage_complete', context)).settled;
    expect(emitted.hooks.map((report) => [report.name, report.status, report.skipped_because])).toEqual([
      ['notify', 'skipped', 'recorded in the journal for a worker to run'],
      ['plain', 'ok', undefined],
    ]);
    expect(emitter.runner.calls.map((call) => call.hook)).toEqual(['plain']);
    expect(journal.entries).toEqual([expect.objectContaining({ hooks: ['notify'] })]);

    const worker = engineFor(config, { journal });
    const stopped = new AbortController();
    stopped.abort();
    expect(await worker.engine.resume({ signal: stopped.signal })).toEqual({ ran: [], pending: [], refused: [] });
    expect(journal.entries).toHaveLength(1);

    const stop = new AbortController();
    const seen: string[] = [];
    const working = worker.engine.resume({
      signal: stop.signal,
      concurrency: 2,
      pollMs: 5,
      onClaim: (entry) => seen.push(`claimed ${entry.event}`),
      onSettled: ({ outcome }) => {
        seen.push(`ran ${outcome?.hooks[0]?.status}`);
        if (seen.length === 4) stop.abort();
      },
    });
    // Idle after the first entry, the worker finds the second when it is recorded.
    while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await emitter.engine.emit('stage_complete', context);
    const report = await working;
    expect(seen).toEqual(['claimed stage_complete', 'ran ok', 'claimed stage_complete', 'ran ok']);
    // Told through the callbacks only: a report of every entry would grow for as long as a worker runs.
    expect(report).toEqual({ ran: [], pending: [], refused: [] });
    expect(worker.runner.calls.map((call) => call.hook)).toEqual(['notify', 'notify']);
    expect(journal.entries).toEqual([]);
  });

  test('nothing is journaled when a blocking hook blocks the event', async () => {
    const journal = memoryJournal();
    const { engine } = engineFor(
      hook('gate', 'decision = "block"\nblocking = true') + hook('notify', 'durable = true'),
      { journal },
    );
    const outcome = await engine.emit('stage_complete', context);
    expect(outcome.decision).toBe('block');
    expect(journal.entries).toEqual([]);
  });

  test('a failed or blocking durable hook still clears its entry: it ran', async () => {
    const journal = memoryJournal();
    const { engine } = engineFor(
      hook('a', 'durable = true\nfail = "boom"') + hook('b', 'durable = true\ndecision = "block"'),
      { journal },
    );
    const settled = await (await engine.emit('stage_complete', context)).settled;
    expect(settled.warnings).toHaveLength(2);
    expect(journal.entries).toEqual([]);
  });

  test('resume() runs what a stopped engine left, with the config as it is now, and clears it', async () => {
    const journal = memoryJournal();
    const first = engineFor(hook('notify', 'durable = true\nhang = true'), { journal, closeGraceMs: 50 }).engine;
    await first.emit('stage_complete', context);
    expect(journal.entries).toHaveLength(1);
    await first.close();
    // Closing stopped the hook before it ended: the entry stays, released, with the reason.
    expect(journal.entries).toEqual([
      expect.objectContaining({ attempts: 1, lastError: 'the engine closed before the durable hooks ended' }),
    ]);
    expect(journal.entries[0]?.owner).toBeUndefined();

    // The config changed meanwhile: the durable hooks of the event as configured now run.
    const { engine, runner } = engineFor(
      hook('notify', 'durable = true') + hook('renamed', 'durable = true') + hook('not-durable', ''),
      { journal },
    );
    const report = await engine.resume();
    expect(runner.calls.map((call) => call.hook)).toEqual(['notify', 'renamed']);
    expect(report.pending).toEqual([]);
    expect(report.ran).toHaveLength(1);
    expect(report.ran[0]?.entry).toMatchObject({ event: 'stage_complete', attempts: 2, hooks: ['notify'] });
    expect(report.ran[0]?.outcome).toMatchObject({ event: 'stage_complete', decision: 'proceed', warnings: [] });
    expect(report.ran[0]?.outcome.hooks.map((hookReport) => [hookReport.name, hookReport.status])).toEqual([
      ['notify', 'ok'],
      ['renamed', 'ok'],
    ]);
    expect(runner.calls[0]?.context).toEqual({ event: 'stage_complete', ...context });
    expect(journal.entries).toEqual([]);
    expect(await engine.resume()).toEqual({ ran: [], pending: [], refused: [] });
  });

  test("resume() claims the next entry while the last one's clear is under way, never running more hooks than its concurrency", async () => {
    const journal = memoryJournal();
    const recorder = engineFor(hook('notify', 'durable = true\nhang = true'), { journal, closeGraceMs: 20 }).engine;
    for (const node_id of ['a', 'b', 'c']) await recorder.emit('stage_complete', { ...context, node_id });
    await recorder.close();
    expect(journal.entries).toHaveLength(3);
    // Each clear is held open until the test lets it go: the journal sees the next claim meanwhile.
    const steps: string[] = [];
    const clears: Array<() => void> = [];
    const slowClears = defineJournal({
      ...journal,
      async doClaim(owner, leaseMs) {
        const entry = await journal.doClaim(owner, leaseMs);
        steps.push(`claim ${(entry?.context['node_id'] as string | undefined) ?? 'none'}`);
        // Lets the clears go once nothing is left, so the drain can end.
        if (entry === undefined) for (const clear of clears.splice(0)) clear();
        return entry;
      },
      async doComplete(id, owner) {
        steps.push(`clear ${id}`);
        await new Promise<void>((resolve) => clears.push(resolve));
        return journal.doComplete(id, owner);
      },
    });
    const { engine, runner } = engineFor(hook('notify', 'durable = true\ndelay_ms = 5'), { journal: slowClears });
    const report = await engine.resume({ concurrency: 1 });
    expect(steps).toEqual(['claim a', 'clear 1', 'claim b', 'clear 2', 'claim c', 'clear 3', 'claim none']);
    expect(runner.maxActive).toBe(1);
    // Resume resolves only once every clear is done, with every outcome.
    expect(report.ran.map((ran) => ran.entry.context['node_id'])).toEqual(['a', 'b', 'c']);
    expect(report.ran.map((ran) => ran.outcome.warnings)).toEqual([[], [], []]);
    expect(journal.entries).toEqual([]);
  });

  test('resume() leaves entries of another preset or event pending, with the reason, and goes on', async () => {
    const journal = memoryJournal();
    const seal = createJournalSeal(TEST_JOURNAL_KEY);
    for (const record of [
      { preset: 'task', event: 'after_merge', context: { event: 'after_merge', task: 't' }, hooks: ['after_merge-01'] },
      { preset: 'arc', event: 'stage_complete', context: { event: 'stage_complete', ...context }, hooks: ['notify'] },
    ]) {
      await journal.doRecord({ ...record, seal: await seal.sealEntry(journal.scope, record) }, 'gone', 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { engine, runner } = engineFor(hook('notify', 'durable = true'), { journal });
    const report = await engine.resume();
    expect(report.pending).toEqual([
      {
        entry: expect.objectContaining({ event: 'after_merge' }),
        error: 'event "after_merge" of preset "task" is not in this engine\'s catalog (preset "arc")',
      },
    ]);
    expect(report.ran.map((ran) => ran.entry.event)).toEqual(['stage_complete']);
    expect(runner.calls).toHaveLength(1);
    expect(journal.entries).toEqual([
      expect.objectContaining({ event: 'after_merge', lastError: expect.stringContaining('not in this engine') }),
    ]);
  });

  test('a journal that cannot record: the hooks still run, and the outcome says they are not durable', async () => {
    const broken = failingJournal();
    const { engine, runner } = engineFor(hook('notify', 'durable = true'), { journal: broken });
    const outcome = await engine.emit('stage_complete', context);
    expect(outcome.warnings).toEqual([
      'could not journal the durable hooks "notify": The hook journal /tmp/journal.db is corrupted — move it aside — they run now, but a crash before they end would lose them',
    ]);
    const settled = await outcome.settled;
    expect(settled.hooks[0]?.status).toBe('ok');
    expect(runner.calls).toHaveLength(1);
    await expect(engine.resume()).rejects.toThrow(JournalError);
  });

  test('a journal busy past its timeout is not unusable: the durable hook is reported failed, by its on_error, and does not run', async () => {
    const { engine, runner } = engineFor(hook('notify', 'durable = true\non_error = "block"'), {
      journal: failingJournal(true),
    });
    const outcome = await engine.emit('stage_complete', context);
    const busy =
      'could not journal the durable hooks "notify": The hook journal /tmp/journal.db stayed locked by another process for 30000 ms — they did not run, since unjournaled a failed delivery would never be retried; emit again once the journal is free';
    expect(outcome.hooks).toEqual([
      expect.objectContaining({
        name: 'notify',
        status: 'failed',
        error: busy,
        decision: { decision: 'block', reason: busy },
      }),
    ]);
    expect(outcome.warnings).toEqual([`hook "notify" failed: ${busy} — on_error made it "block"`]);
    // A non-blocking hook's decision never holds the event back.
    expect(outcome.decision).toBe('proceed');
    expect((await outcome.settled).hooks[0]?.status).toBe('failed');
    expect(runner.calls).toHaveLength(0);
  });

  test('a busy journal fails only the durable hooks: the other non-blocking hooks of the emit run, and the failure is in the settled warnings', async () => {
    const { engine, runner } = engineFor(hook('notify', 'durable = true') + hook('log', ''), {
      journal: failingJournal(true),
      durableHooks: 'record',
    });
    const outcome = await engine.emit('stage_complete', context);
    const settled = await outcome.settled;
    expect(settled.hooks.map((report) => [report.name, report.status])).toEqual([
      ['notify', 'failed'],
      ['log', 'ok'],
    ]);
    expect(settled.warnings).toEqual([
      expect.stringMatching(/^hook "notify" failed: could not journal .* they did not run/),
    ]);
    expect(runner.calls.map((call) => call.hook)).toEqual(['log']);
  });

  test('leases are renewed while the hooks run: another engine on the journal cannot take the entry', async () => {
    const journal = memoryJournal();
    const { engine } = engineFor(hook('slow', 'durable = true\ndelay_ms = 400'), { journal, journalLeaseMs: 90 });
    const other = engineFor(hook('slow', 'durable = true'), { journal }).engine;
    const outcome = await engine.emit('stage_complete', context);
    for (let round = 0; round < 4; round++) {
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await other.resume()).toEqual({ ran: [], pending: [], refused: [] });
    }
    await outcome.settled;
    expect(journal.entries).toEqual([]);
  });

  test('a task point is durable without saying so', async () => {
    const journal: MemoryJournal = memoryJournal();
    const runner = scriptedRunner({ type: 'command' });
    const config = loadConfig(
      [
        {
          text: 'preset = "task"\n[[hooks]]\nname = "cleanup"\nevent = "after_merge"\ntype = "command"\ndelay_ms = 20\n',
          source: 'task.toml',
        },
      ],
      { runners: [runner] },
    );
    expect(() => createHookEngine({ config, runners: [runner] })).toThrow('is durable');
    expect(() => createHookEngine({ config, runners: [runner], journal })).toThrow(
      'but no journalKey: pass journalKey',
    );
    const engine = createHookEngine({ config, runners: [runner], journal, journalKey: false });
    closeAfterTest(engine);
    const outcome = await engine.emit('after_merge', { task: 't-1' });
    expect(journal.entries.map((entry) => [entry.event, entry.hooks])).toEqual([['after_merge', ['cleanup']]]);
    await outcome.settled;
    expect(journal.entries).toEqual([]);
  });
});

function failingJournal(busy = false): Journal {
  const fail = (): Promise<never> =>
    Promise.reject(
      busy
        ? new JournalError('The hook journal /tmp/journal.db stayed locked by another process for 30000 ms', {
            location: '/tmp/journal.db',
            busy: true,
          })
        : new JournalError('The hook journal /tmp/journal.db is corrupted — move it aside', {
            location: '/tmp/journal.db',
          }),
    );
  return defineJournal({
    name: 'failing',
    scope: 'failing',
    doRecord: fail,
    doClaim: fail,
    doRenew: fail,
    doComplete: fail,
    doRelease: fail,
    doDeadLetter: fail,
    list: fail,
  });
}
