import { describe, expect, test } from 'vitest';
import { scriptedEngines, scriptedHook, TEST_JOURNAL_KEY } from '../../test-support/scripted-engines.ts';
import { canonicalJson, createJournalSeal } from '../plugins/journal-seal.ts';
import type { Journal, JournalProcessGroup, JournalRecord } from '../plugins/journal.ts';
import { memoryJournal, type MemoryJournal } from '../testing/memory-journal.ts';

const { engineFor } = scriptedEngines();
const seal = createJournalSeal(TEST_JOURNAL_KEY);
const hook = scriptedHook('notify', 'durable = true', 'stage_complete');
const context = { event: 'stage_complete', run_id: 'r-1', workflow_name: 'wf', node_id: 'build' };
const record: JournalRecord = { preset: 'arc', event: 'stage_complete', context, hooks: ['notify'] };

// Each forged form of an entry a hook could write into the journal, given the journal it lands in.
const forgeries: ReadonlyArray<readonly [string, (journal: Journal) => Promise<JournalRecord>]> = [
  ['no seal (written before seals, or by hand)', async () => record],
  ['an empty seal', async () => ({ ...record, seal: '' })],
  ['a seal that is not hex', async () => ({ ...record, seal: 'v1.forged' })],
  ['a wrong seal of the right shape', async () => ({ ...record, seal: `v1.${'0'.repeat(64)}` })],
  [
    'a seal made with another key',
    async (journal) => ({
      ...record,
      seal: await createJournalSeal(new Uint8Array(32).fill(9)).sealEntry(journal.scope, record),
    }),
  ],
  [
    'a valid seal over another context',
    async (journal) => ({
      ...record,
      context: { ...context, node_id: 'deploy' },
      seal: await seal.sealEntry(journal.scope, record),
    }),
  ],
  [
    'a valid seal over other hooks',
    async (journal) => ({ ...record, hooks: ['notify', 'extra'], seal: await seal.sealEntry(journal.scope, record) }),
  ],
  [
    'a row copied from another journal',
    async () => ({ ...record, seal: await seal.sealEntry(memoryJournal().scope, record) }),
  ],
];

describe('sealed journal entries', () => {
  for (const [form, forge] of forgeries) {
    test(`an entry with ${form} is refused: dead-lettered with the reason, its hooks not run, reported`, async () => {
      const journal = memoryJournal();
      await journal.doRecord(await forge(journal), 'gone', 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const { engine, runner } = engineFor(hook, { journal });
      const report = await engine.resume();
      expect(runner.calls).toEqual([]);
      expect(report.ran).toEqual([]);
      expect(report.refused).toEqual([
        {
          entry: expect.objectContaining({ event: 'stage_complete' }),
          reason: expect.stringMatching(/^refused: .* hookline journal retry 1 --trust\.$/),
        },
      ]);
      expect(journal.entries).toEqual([
        expect.objectContaining({ deadLetteredAt: expect.any(Number), lastError: report.refused[0]!.reason }),
      ]);
      // Never claimed again: a second resume finds nothing.
      expect(await engine.resume()).toEqual({ ran: [], pending: [], refused: [] });
    });
  }

  test("an entry sealed by the engine's own key for this journal runs, and is cleared", async () => {
    const journal = memoryJournal();
    await journal.doRecord({ ...record, seal: await seal.sealEntry(journal.scope, record) }, 'gone', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { engine, runner } = engineFor(hook, { journal });
    const report = await engine.resume();
    expect([report.ran.length, report.refused.length, runner.calls.length]).toEqual([1, 0, 1]);
    expect(journal.entries).toEqual([]);
  });

  test('what an engine records carries a seal that verifies for its journal only', async () => {
    const journal = memoryJournal();
    const { engine } = engineFor(scriptedHook('notify', 'durable = true\nhang = true', 'stage_complete'), {
      journal,
      closeGraceMs: 20,
    });
    await engine.emit('stage_complete', context);
    const [entry] = journal.entries;
    expect(entry?.seal).toMatch(/^v1\.[0-9a-f]{64}$/);
    expect(await seal.verifyEntry(journal.scope, entry!)).toBe('valid');
    expect(await seal.verifyEntry(memoryJournal().scope, entry!)).toBe('invalid');
  });

  test('journalKey: false trusts the journal: an unsealed entry runs', async () => {
    const journal = memoryJournal();
    await journal.doRecord(record, 'gone', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { engine, runner } = engineFor(hook, { journal, journalKey: false });
    expect((await engine.resume()).ran).toHaveLength(1);
    expect(runner.calls).toHaveLength(1);
  });

  test('a key that cannot be read makes journaling fail as an unusable journal does: the hooks run unjournaled, with a warning', async () => {
    const journal = memoryJournal();
    const { engine, runner } = engineFor(hook, {
      journal,
      journalKey: () => {
        throw new Error('the key file is not yours');
      },
    });
    const outcome = await (await engine.emit('stage_complete', context)).settled;
    expect(runner.calls).toHaveLength(1);
    expect(outcome.warnings).toEqual([
      expect.stringContaining('could not journal the durable hooks "notify": the key file is not yours'),
    ]);
    await expect(engine.resume()).resolves.toEqual({ ran: [], pending: [], refused: [] });
  });

  test('a key shorter than 32 bytes is refused with what to pass', async () => {
    const short = createJournalSeal(new Uint8Array(16));
    await expect(short.sealEntry('scope', record)).rejects.toThrow('journalKey must hold at least 32 bytes');
  });

  test('the seal covers values, not key order (a journal may reorder keys)', async () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"e":3,"f":2}]},"b":1}',
    );
    // As JSON.stringify has it: undefined members left out, undefined items null; names escaped.
    expect(canonicalJson({ z: undefined, a: [undefined, 'x', {}, []], 'k"': 'v', y: undefined })).toBe(
      '{"a":[null,"x",{},[]],"k\\"":"v"}',
    );
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ only: undefined })).toBe('{}');
    const reordered = {
      ...record,
      context: { node_id: 'build', workflow_name: 'wf', run_id: 'r-1', event: 'stage_complete' },
    };
    const journal = memoryJournal();
    expect(
      await seal.verifyEntry(journal.scope, {
        ...reordered,
        id: '1',
        createdAt: 0,
        attempts: 1,
        seal: await seal.sealEntry(journal.scope, record),
      }),
    ).toBe('valid');
  });
});

describe('process groups of a claimed entry', () => {
  // A memory journal that hands out the given groups with its next claim, and records what the engine asks it to end.
  const withGroups = (
    journal: MemoryJournal,
    groups: (entrySeal: string) => Promise<JournalProcessGroup[]>,
  ): Journal & { ended: JournalProcessGroup[][]; deadLettered: string[] } => {
    const ended: JournalProcessGroup[][] = [];
    const deadLettered: string[] = [];
    return {
      ...journal,
      ended,
      deadLettered,
      async doClaim(owner, leaseMs) {
        const entry = await journal.doClaim(owner, leaseMs);
        return entry === undefined ? undefined : { ...entry, processGroups: await groups(entry.seal ?? '') };
      },
      async doDeadLetter(id, owner, reason) {
        deadLettered.push(id);
        return journal.doDeadLetter(id, owner, reason);
      },
      async doEndProcessGroups(_id, _owner, given) {
        ended.push([...given]);
        return [];
      },
    };
  };
  const group = { host: 'this-host', pid: 4242, start: '123456' };

  test('only groups whose seal verifies for their entry go to the journal to end; the others are reported, unsignalled', async () => {
    const base = memoryJournal();
    await base.doRecord({ ...record, seal: await seal.sealEntry(base.scope, record) }, 'gone', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const otherEntrySeal = await seal.sealEntry(base.scope, { ...record, hooks: ['other'] });
    const journal = withGroups(base, async (entrySeal) => [
      { ...group, seal: await seal.sealGroup(entrySeal, group) },
      // Forged: unsealed, sealed for another entry, sealed then its pid or start time changed.
      { ...group, pid: 1111 },
      { ...group, pid: 2222, seal: await seal.sealGroup(otherEntrySeal, { ...group, pid: 2222 }) },
      { ...group, pid: 3333, seal: await seal.sealGroup(entrySeal, group) },
      { ...group, start: '', seal: await seal.sealGroup(entrySeal, group) },
    ]);
    const { engine, runner } = engineFor(hook, { journal });
    const report = await engine.resume();
    expect(journal.ended).toEqual([[expect.objectContaining(group)]]);
    expect(runner.calls).toHaveLength(1);
    const warnings = report.ran[0]!.outcome.warnings;
    expect(
      warnings.filter((warning) =>
        warning.includes('with a seal that does not verify (forged or edited); it was not signalled'),
      ),
    ).toHaveLength(4);
  });

  test('the groups of a refused entry are never handed to the journal to end, however they are sealed', async () => {
    const base = memoryJournal();
    await base.doRecord(record, 'gone', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const journal = withGroups(base, async () => [{ ...group, seal: await seal.sealGroup('', group) }]);
    const { engine, runner } = engineFor(hook, { journal });
    const report = await engine.resume();
    expect(journal.ended.flat()).toEqual([]);
    expect(journal.deadLettered).toEqual(['1']);
    expect(runner.calls).toEqual([]);
    expect(report.refused[0]?.reason).toContain('Its 1 recorded process group was not signalled.');
  });
});
