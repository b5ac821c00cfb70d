// A hook that can write the journal file forges rows in it (node:sqlite, as a hook would), naming a
// victim's process group and a context of its own. Resuming must signal nothing, run none of the
// forged contexts' hooks, and say what it refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createHookEngine, loadConfig, type ResumeReport } from '@hookline/core';
import { createJournalSeal, type JournalProcessGroup } from '@hookline/core/plugin';
import { commandRunner } from '@hookline/runner-command';
import {
  isSameProcess,
  localHostIdentity,
  processIdentity,
  type ProcessIdentity,
} from '@hookline/runner-command/process-identity';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { useScratchDirectory } from '../test-support/scratch.ts';
import { TEST_JOURNAL_KEY } from '../test-support/test-key.ts';
import { sqliteJournal } from './sqlite-journal.ts';

const scratch = useScratchDirectory();
const seal = createJournalSeal(TEST_JOURNAL_KEY);
const otherKey = createJournalSeal(new Uint8Array(32).fill(8));
// The hook writes the task it was given: a forged context's task must never appear.
const config = `preset = "task"\n[hooks]\nafter_merge = ['echo "$ARC_TASK" >> "$ARC_WORKTREE/marker"']\n`;

let victim: ChildProcess;
let identity: ProcessIdentity;
beforeEach(async () => {
  // A process group that has nothing to do with Hookline: its own group, its own leader.
  victim = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
  await new Promise((resolve) => victim.once('spawn', resolve));
  identity = processIdentity(victim.pid)!;
});
afterEach(() => {
  victim.kill('SIGKILL');
});

const contextOf = (task: string) => ({ event: 'after_merge', task, worktree: scratch() });
const recordOf = (task: string) => ({
  preset: 'task',
  event: 'after_merge',
  context: contextOf(task),
  hooks: ['after_merge-01'],
});

/** Inserts a row as a hook with write access to the file would: every column its own choice. */
function forgeRow(
  path: string,
  row: { task: string; seal?: string | null; groups: ReadonlyArray<Partial<JournalProcessGroup>>; context?: object },
): void {
  const database = new DatabaseSync(path);
  database
    .prepare(
      'INSERT INTO hookline_journal (preset, event, context, hooks, created_at, attempts, available_at, process_groups, seal) VALUES (?, ?, ?, ?, ?, 1, 0, ?, ?)',
    )
    .run(
      'task',
      'after_merge',
      JSON.stringify(row.context ?? contextOf(row.task)),
      '["after_merge-01"]',
      Date.now(),
      JSON.stringify(row.groups),
      row.seal ?? null,
    );
  database.close();
}

async function resume(path: string): Promise<ResumeReport> {
  const runners = [commandRunner({ logRoot: join(scratch(), 'runs') })];
  const journal = sqliteJournal({ path });
  const engine = createHookEngine({
    config: loadConfig([{ text: config, source: 'task.toml' }], { runners }),
    runners,
    journal,
    journalKey: TEST_JOURNAL_KEY,
  });
  try {
    return await engine.resume();
  } finally {
    await engine.close();
  }
}

async function newJournal(name = 'journal.db'): Promise<{ path: string; scope: string }> {
  const path = join(scratch(), name);
  const journal = sqliteJournal({ path });
  await journal.list();
  await journal.doClose();
  return { path, scope: journal.scope };
}

describe('forged rows in the SQLite journal', () => {
  const victimGroup = (start = identity.start): JournalProcessGroup => ({
    host: localHostIdentity(),
    pid: identity.pid,
    start,
  });
  const refusedForms: ReadonlyArray<readonly [string, (scope: string) => Promise<Parameters<typeof forgeRow>[1]>]> = [
    [
      'no seal and an empty start time (the reported break)',
      async () => ({ task: 'forged', groups: [victimGroup('')] }),
    ],
    ['no seal and the right start time', async () => ({ task: 'forged', groups: [victimGroup()] })],
    [
      'a wrong seal',
      async () => ({
        task: 'forged',
        seal: `v1.${'ab'.repeat(32)}`,
        groups: [{ ...victimGroup(), seal: `v1.${'cd'.repeat(32)}` }],
      }),
    ],
    [
      'seals made with another key',
      async (scope) => {
        const entrySeal = await otherKey.sealEntry(scope, recordOf('forged'));
        return {
          task: 'forged',
          seal: entrySeal,
          groups: [{ ...victimGroup(), seal: await otherKey.sealGroup(entrySeal, victimGroup()) }],
        };
      },
    ],
    [
      "a valid entry's seal over an altered context",
      async (scope) => {
        const entrySeal = await seal.sealEntry(scope, recordOf('genuine'));
        return {
          task: 'forged',
          seal: entrySeal,
          groups: [{ ...victimGroup(), seal: await seal.sealGroup(entrySeal, victimGroup()) }],
        };
      },
    ],
    [
      'a row copied from another journal file (sealed with the same key there)',
      async () => {
        const elsewhere = await newJournal('other.db');
        const entrySeal = await seal.sealEntry(elsewhere.scope, recordOf('forged'));
        return {
          task: 'forged',
          seal: entrySeal,
          groups: [{ ...victimGroup(), seal: await seal.sealGroup(entrySeal, victimGroup()) }],
        };
      },
    ],
  ];
  for (const [form, forge] of refusedForms) {
    test(`${form}: the victim lives, the forged context's hooks do not run, the entry is dead-lettered and reported`, async () => {
      const { path, scope } = await newJournal();
      forgeRow(path, await forge(scope));
      const report = await resume(path);
      expect(isSameProcess(identity)).toBe(true);
      expect(existsSync(join(scratch(), 'marker'))).toBe(false);
      expect(report.ran).toEqual([]);
      expect(report.refused).toEqual([
        {
          entry: expect.objectContaining({ id: '1' }),
          reason: expect.stringContaining(
            'Its 1 recorded process group was not signalled. Check its context (hookline journal ls --json); to run it anyway: hookline journal retry 1 --trust.',
          ),
        },
      ]);
      const journal = sqliteJournal({ path });
      const [left] = await journal.list();
      await journal.doClose();
      expect(left).toMatchObject({ deadLetteredAt: expect.any(Number), lastError: report.refused[0]!.reason });
      expect(left?.processGroups).toBeUndefined();
      // A second resume does not take it again.
      expect((await resume(path)).refused).toEqual([]);
      expect(isSameProcess(identity)).toBe(true);
    });
  }

  const groupForms: ReadonlyArray<readonly [string, (entrySeal: string) => Promise<Partial<JournalProcessGroup>>]> = [
    [
      "a valid entry's group with its pid changed to the victim's",
      async (entrySeal) => ({
        ...victimGroup(),
        seal: await seal.sealGroup(entrySeal, { ...victimGroup(), pid: 2_147_483_000 }),
      }),
    ],
    ['an unsealed group in a valid entry', async () => victimGroup()],
    [
      'a group sealed for another entry',
      async () => ({
        ...victimGroup(),
        seal: await seal.sealGroup(await seal.sealEntry('elsewhere', recordOf('other')), victimGroup()),
      }),
    ],
    [
      'a validly sealed group with an empty start time',
      async (entrySeal) => ({ ...victimGroup(''), seal: await seal.sealGroup(entrySeal, victimGroup('')) }),
    ],
    [
      'a validly sealed group with a stale start time',
      async (entrySeal) => ({ ...victimGroup('1'), seal: await seal.sealGroup(entrySeal, victimGroup('1')) }),
    ],
    [
      'a validly sealed group naming pid 1',
      async (entrySeal) => ({
        host: localHostIdentity(),
        pid: 1,
        start: '1',
        seal: await seal.sealGroup(entrySeal, { host: localHostIdentity(), pid: 1, start: '1' }),
      }),
    ],
    [
      'a validly sealed group without a host',
      async (entrySeal) => ({
        pid: identity.pid,
        start: identity.start,
        seal: await seal.sealGroup(entrySeal, { host: '', pid: identity.pid, start: identity.start }),
      }),
    ],
  ];
  for (const [form, forge] of groupForms) {
    test(`${form}: the genuine entry runs, the victim lives, and the resume report says the group was not signalled`, async () => {
      const { path, scope } = await newJournal();
      const entrySeal = await seal.sealEntry(scope, recordOf('genuine'));
      forgeRow(path, { task: 'genuine', seal: entrySeal, groups: [await forge(entrySeal)] });
      const report = await resume(path);
      expect(isSameProcess(identity)).toBe(true);
      expect(report.refused).toEqual([]);
      expect(report.ran).toHaveLength(1);
      expect(report.ran[0]!.outcome.hooks.map((hook) => hook.status)).toEqual(['ok']);
      expect(report.ran[0]!.outcome.warnings).toEqual([expect.stringMatching(/not (be )?signalled/)]);
    });
  }

  test('the same victim group, recorded and sealed by an engine as its own hook, is ended: the check tells the two apart', async () => {
    const { path, scope } = await newJournal();
    const entrySeal = await seal.sealEntry(scope, recordOf('genuine'));
    forgeRow(path, {
      task: 'genuine',
      seal: entrySeal,
      groups: [{ ...victimGroup(), seal: await seal.sealGroup(entrySeal, victimGroup()) }],
    });
    const report = await resume(path);
    expect(report.ran[0]!.outcome.warnings).toEqual([]);
    expect(isSameProcess(identity)).toBe(false);
  });
});
