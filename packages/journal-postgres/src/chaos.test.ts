import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { testPostgres } from '../test-support/postgres.ts';
import { postgresJournal } from './postgres-journal.ts';

const server = testPostgres('chaos.test.ts');
const worker = fileURLToPath(new URL('../test-support/chaos-worker.ts', import.meta.url));
const ENTRIES = 200;
const WORKERS = 3;

function lastLineOf(log: string, name: string): string | undefined {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .findLast((line) => line.split(' ')[2] === name);
}

describe.skipIf(server === undefined)(
  'chaos: claimers in several processes, one SIGKILLed mid-lease every second',
  () => {
    test('every entry is completed, and no entry runs in two processes at once', async () => {
      const url = server!.createDatabase('chaos');
      const directory = mkdtempSync(join(tmpdir(), 'hookline-chaos-'));
      const log = join(directory, 'runs.log');
      writeFileSync(log, '');
      const journal = postgresJournal({ url });
      const running = new Map<string, ChildProcess>();
      const killedAt = new Map<string, number>();
      let started = 0;
      const startWorker = (): void => {
        const name = `worker-${started++}`;
        running.set(
          name,
          spawn(process.execPath, [worker, url, log, name], { stdio: ['ignore', 'ignore', 'inherit'] }),
        );
      };
      try {
        // Recorded for others to run (no lease), as emitters that leave the running to workers do.
        for (let index = 0; index < ENTRIES; index++)
          await journal.doRecord(
            {
              preset: 'task',
              event: 'after_merge',
              context: { event: 'after_merge', task: `t-${index}` },
              hooks: ['a'],
            },
            'emitter',
            0,
          );
        for (let index = 0; index < WORKERS; index++) startWorker();
        const deadline = Date.now() + 40_000;
        let lastKill = Date.now();
        for (let stats = await journal.stats(); stats.pending + stats.leased > 0; stats = await journal.stats()) {
          if (Date.now() > deadline) throw new Error(`the journal was not drained in time: ${JSON.stringify(stats)}`);
          // A worker that is running an entry (its last line is a start) dies mid-lease; a new one starts.
          const holding =
            Date.now() - lastKill >= 1_000 && killedAt.size < 6
              ? [...running].find(([name]) => lastLineOf(log, name)?.startsWith('start '))
              : undefined;
          if (holding !== undefined) {
            const [name, child] = holding;
            killedAt.set(name, Date.now());
            child.kill('SIGKILL');
            running.delete(name);
            startWorker();
            lastKill = Date.now();
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }

        // The journal is empty once the last DELETE commits, a moment before the worker that sent it
        // hears back and logs `done`: wait until every live worker has finished its cycle.
        while ([...running.keys()].some((name) => /^(start|end) /.test(lastLineOf(log, name) ?? '')))
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await journal.stats()).deadLettered).toBe(0);
        expect(await journal.list()).toEqual([]);
        const lines = readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split(' ') as [string, string, string, string]);
        // 0 lost: a worker deletes an entry only after its run ended, so with the journal empty every
        // entry must have a run that reached its end. Counting `done` lines instead missed an entry now
        // and then: a worker SIGKILLed after its DELETE committed and before it wrote `done` (the kill
        // is aimed at a worker whose last line is a start, but that worker runs on meanwhile).
        const ended = new Map(lines.filter(([kind]) => kind === 'end').map(([, id, name]) => [id, name]));
        expect(ended.size).toBe(ENTRIES);
        // Every entry is acknowledged by a `done`, unless the worker whose run ended last was killed.
        const done = new Set(lines.filter(([kind]) => kind === 'done').map(([, id]) => id));
        const unacknowledged = [...ended].filter(([id, name]) => !done.has(id) && !killedAt.has(name));
        expect(unacknowledged).toEqual([]);
        // Each run of an entry, from its start to its end — or to its process's death.
        const runs = new Map<string, Array<{ name: string; from: number; to: number }>>();
        for (const [kind, id, name, at] of lines) {
          if (kind === 'start')
            runs.set(id, [
              ...(runs.get(id) ?? []),
              { name, from: Number(at), to: killedAt.get(name) ?? Number.POSITIVE_INFINITY },
            ]);
          if (kind === 'end') runs.get(id)!.find((run) => run.name === name && run.to >= Number(at))!.to = Number(at);
        }
        const overlaps: string[] = [];
        for (const [id, list] of runs) {
          for (let index = 1; index < list.length; index++)
            if (list[index]!.from < list[index - 1]!.to) overlaps.push(`${id}: ${JSON.stringify(list)}`);
        }
        expect(overlaps).toEqual([]);
        const duplicates = [...runs.values()].filter((list) => list.length > 1).length;
        console.log(
          `chaos: ${ENTRIES} entries, ${killedAt.size} workers killed, ${started} started; ${duplicates} entries ran more than once (their runs were killed), none in two places at once; ` +
            `${ENTRIES - done.size} completed by a worker killed before it could log done`,
        );
        expect(killedAt.size).toBeGreaterThan(0);
        expect(duplicates).toBeGreaterThan(0); // the killed workers' entries ran again
      } finally {
        for (const child of running.values()) child.kill('SIGKILL');
        await journal.doClose();
        rmSync(directory, { recursive: true, force: true });
      }
    }, 60_000);
  },
);
