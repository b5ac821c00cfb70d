// A process that can write the journal's tables forges rows in them, naming a victim's process
// group and a context of its own. Workers resuming it must signal nothing, run none of the forged
// contexts' hooks, and say what they refused — the same rule as the SQLite journal.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { testPostgres } from '../test-support/postgres.ts';
import { postgresJournal } from './postgres-journal.ts';

const server = testPostgres('forged-entries.test.ts');
const key = new Uint8Array(32).fill(5);
const seal = createJournalSeal(key);
const otherKey = createJournalSeal(new Uint8Array(32).fill(6));
const config = `preset = "task"\n[hooks]\nafter_merge = ['echo "$ARC_TASK" >> "$ARC_WORKTREE/marker"']\n`;

let scratch = '';
let victim: ChildProcess;
let identity: ProcessIdentity;
let database = '';
let count = 0;
beforeEach(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'journal-postgres-forged-'));
  victim = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
  await new Promise((resolve) => victim.once('spawn', resolve));
  identity = processIdentity(victim.pid)!;
  database = `forged_${count++}`;
  if (server !== undefined) server.createDatabase(database);
});
afterEach(() => {
  victim.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

const contextOf = (task: string) => ({ event: 'after_merge', task, worktree: scratch });
const recordOf = (task: string) => ({
  preset: 'task',
  event: 'after_merge',
  context: contextOf(task),
  hooks: ['after_merge-01'],
});
const victimGroup = (start = identity.start): JournalProcessGroup => ({
  host: localHostIdentity(),
  pid: identity.pid,
  start,
});
const literal = (value: string | null | undefined): string =>
  value === null || value === undefined ? 'NULL' : `'${value.replaceAll("'", "''")}'`;

// An INSERT as a writer of the table would make it, every column its own choice.
function forgeRow(row: { task: string; seal?: string; groups: ReadonlyArray<Partial<JournalProcessGroup>> }): void {
  server!.psql(
    `INSERT INTO hookline_journal (preset, event, context, hooks, attempts, process_groups, seal)
     VALUES ('task', 'after_merge', ${literal(JSON.stringify(contextOf(row.task)))}, '["after_merge-01"]', 1, ${literal(JSON.stringify(row.groups))}, ${literal(row.seal)})`,
    database,
  );
}

async function resume(): Promise<ResumeReport> {
  const runners = [commandRunner({ logRoot: join(scratch, 'runs') })];
  const engine = createHookEngine({
    config: loadConfig([{ text: config, source: 'task.toml' }], { runners }),
    runners,
    journal: postgresJournal({ url: server!.url(database) }),
    journalKey: key,
  });
  try {
    return await engine.resume();
  } finally {
    await engine.close();
  }
}

async function scopeOf(tablePrefix?: string): Promise<string> {
  const journal = postgresJournal({
    url: server!.url(database),
    ...(tablePrefix === undefined ? {} : { tablePrefix }),
  });
  await journal.list();
  await journal.doClose();
  return journal.scope;
}

describe.skipIf(server === undefined)('forged rows in the PostgreSQL journal', () => {
  const refused: ReadonlyArray<readonly [string, (scope: string) => Promise<Parameters<typeof forgeRow>[0]>]> = [
    ['no seal and an empty start time', async () => ({ task: 'forged', groups: [victimGroup('')] })],
    ['a wrong seal', async () => ({ task: 'forged', seal: `v1.${'ab'.repeat(32)}`, groups: [victimGroup()] })],
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
      async (scope) => ({
        task: 'forged',
        seal: await seal.sealEntry(scope, recordOf('genuine')),
        groups: [victimGroup()],
      }),
    ],
    [
      "a row copied from another journal's tables (same key)",
      async () => {
        const entrySeal = await seal.sealEntry(await scopeOf('other_'), recordOf('forged'));
        return {
          task: 'forged',
          seal: entrySeal,
          groups: [{ ...victimGroup(), seal: await seal.sealGroup(entrySeal, victimGroup()) }],
        };
      },
    ],
  ];
  for (const [form, forge] of refused) {
    test(`${form}: the victim lives, the forged hooks do not run, the entry is dead-lettered and reported`, async () => {
      forgeRow(await forge(await scopeOf()));
      const report = await resume();
      expect(isSameProcess(identity)).toBe(true);
      expect(existsSync(join(scratch, 'marker'))).toBe(false);
      expect(report.ran).toEqual([]);
      expect(report.refused).toEqual([
        {
          entry: expect.objectContaining({ id: '1' }),
          reason: expect.stringContaining('hookline journal retry 1 --trust'),
        },
      ]);
      expect(
        server!.psql('SELECT dead_at IS NOT NULL, process_groups IS NULL FROM hookline_journal', database).trim(),
      ).toBe('t|t');
    });
  }

  test("a valid entry whose group's pid was changed to the victim's: the entry runs, the victim lives, the report says why", async () => {
    const entrySeal = await seal.sealEntry(await scopeOf(), recordOf('genuine'));
    forgeRow({
      task: 'genuine',
      seal: entrySeal,
      groups: [{ ...victimGroup(), seal: await seal.sealGroup(entrySeal, { ...victimGroup(), pid: 2_147_483_000 }) }],
    });
    const report = await resume();
    expect(isSameProcess(identity)).toBe(true);
    expect(report.ran[0]?.outcome.hooks.map((hook) => hook.status)).toEqual(['ok']);
    expect(report.ran[0]?.outcome.warnings).toEqual([
      expect.stringContaining('with a seal that does not verify (forged or edited); it was not signalled'),
    ]);
  });

  test('the same group, sealed by the key for this entry, is ended: jsonb reordering its keys does not break the seal', async () => {
    const entrySeal = await seal.sealEntry(await scopeOf(), recordOf('genuine'));
    forgeRow({
      task: 'genuine',
      seal: entrySeal,
      groups: [{ ...victimGroup(), seal: await seal.sealGroup(entrySeal, victimGroup()) }],
    });
    const report = await resume();
    expect(report.ran[0]?.outcome.warnings).toEqual([]);
    expect(isSameProcess(identity)).toBe(false);
  });
});
